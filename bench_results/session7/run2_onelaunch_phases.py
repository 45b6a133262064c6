import os, sys, json, time, torch
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); sys.path.insert(0, "scripts")
import nsa_nb.decode as D
from nsa_nb.decode import layer_cache, fill_random_, _time_steps, sdpa_decode
import proto_onelaunch as fused
from nsa_nb.config import ModelConfig, NSAConfig
from nsa_nb.model import TransformerLM
def layer(attn, shape):
    mc = ModelConfig(vocab_size=256, dim=1024, n_layers=1, n_heads=64, n_kv_groups=4, d_k=128, d_v=128, attn=attn, backend='triton')
    return TransformerLM(mc, NSAConfig()).cuda().to(torch.bfloat16).eval().blocks[0].attn
attn = layer('nsa', 'paper')
for B, T in ((8, 65536), (1, 65536)):
    lc = fill_random_(layer_cache(attn, B, T + 200), 0); lc.count_reads = False
    pos = torch.full((B,), T, device='cuda', dtype=torch.long)
    q = torch.randn(B, attn.n_heads, attn.d_k, device='cuda', dtype=torch.bfloat16)
    g = torch.rand(B, attn.n_heads, 3, device='cuda', dtype=q.dtype)
    cur = _time_steps(lambda: D.nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False), 200, 10, True)
    z = _time_steps(lambda: torch.zeros(1 + 3 * B * 4, device='cuda', dtype=torch.int32), 200, 10, True)
    print(f"B={B} T={T}: cur {cur*1e3:.1f} us; memset {z*1e3:.1f} us", flush=True)
    for warps in ((4, 8) if B == 8 else (4,)):
        for sb in ((128, 64) if B == 8 else (128,)):
            for lag in (8,):
                for ph in (1, 2, 3, 4):
                    fused.WARPS = warps; D.SCORE_BLOCKS = sb
                    fused.nsa_decode_fused(q, lc, pos, g, attn.cfg, count=False, lag=lag, phases=ph, nap=0); torch.cuda.synchronize()
                    k = fused.LAST[0]
                    ms = _time_steps(lambda: fused.nsa_decode_fused(q, lc, pos, g, attn.cfg, count=False, lag=lag, phases=ph, nap=0), 100, 5, True)
                    print(f"  warps {warps} SB {sb} lag {lag} phases {ph}: {ms*1e3:.1f} us  regs {k.n_regs} spills {k.n_spills} shared {k.metadata.shared}", flush=True)
    D.SCORE_BLOCKS = 128
    fused.WARPS = 4
    del lc; torch.cuda.empty_cache()
