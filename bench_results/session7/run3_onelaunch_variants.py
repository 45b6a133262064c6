import os, sys, json, time, torch
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); sys.path.insert(0, "scripts")
import nsa_nb.decode as D
from nsa_nb.decode import layer_cache, fill_random_, _time_steps, sdpa_decode, _bench_model
import proto_onelaunch as fused
from nsa_nb.config import ModelConfig, NSAConfig
from nsa_nb.model import TransformerLM
def layer(attn, shape):
    if shape == 'm125': return _bench_model(attn, 'configs/m7c_125m.yaml', torch.bfloat16).blocks[0].attn
    mc = ModelConfig(vocab_size=256, dim=1024, n_layers=1, n_heads=64, n_kv_groups=4, d_k=128, d_v=128, attn=attn, backend='triton')
    return TransformerLM(mc, NSAConfig()).cuda().to(torch.bfloat16).eval().blocks[0].attn
if __name__ == '__main__':
 V = dict( base=dict(lag=8, nap=0), a=dict(lag=8), b=dict(lag=8, nb=4), c=dict(lag=8, nb=4, cg=4), d=dict(lag=8, nb=4, cg=4, np_row=2),
          e=dict(lag=4, nb=4, cg=4, np_row=2), f=dict(lag=16, nb=4, cg=4, np_row=2), g=dict(lag=8, nb=4, cg=4, np_row=2, phases=1),
          h=dict(lag=8, nb=16, cg=16, np_row=1), i=dict(lag=8, nb=4, cg=4, np_row=2, nap=500))
 for shape, B in (('paper', 8), ('m125', 8), ('paper', 1)):
     T = 65536
     attn, dattn = layer('nsa', shape), layer('dense', shape)
     lc = fill_random_(layer_cache(attn, B, T + 200), 0); lc.count_reads = False
     dc = fill_random_(layer_cache(dattn, B, T + 200), 0)
     pos = torch.full((B,), T, device='cuda', dtype=torch.long)
     q = torch.randn(B, attn.n_heads, attn.d_k, device='cuda', dtype=torch.bfloat16)
     g = torch.rand(B, attn.n_heads, 3, device='cuda', dtype=q.dtype)
     o0, i0, _ = D.nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False)
     dense = _time_steps(lambda: sdpa_decode(q[:, :, None], dc.k[:, :, :T + 1], dc.v[:, :, :T + 1]), 200, 10, True)
     cur = _time_steps(lambda: D.nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False), 200, 10, True)
     print(f"{shape} B={B} T={T}: dense {dense*1e3:.1f} us, cur {cur*1e3:.1f} us ({dense/cur:.2f}x)", flush=True)
     for name, kw in V.items():
         o, i, _ = fused.nsa_decode_fused(q, lc, pos, g, attn.cfg, count=False, **kw); torch.cuda.synchronize()
         same = kw.get('phases', 4) < 4 or bool((i == i0).all()) and (o.float() - o0.float()).abs().max().item() < 1e-2
         k = fused.LAST[0]
         ms = _time_steps(lambda: fused.nsa_decode_fused(q, lc, pos, g, attn.cfg, count=False, **kw), 200, 10, True)
         print(f"  {name} {kw}: {ms*1e3:.1f} us ({dense/ms:.2f}x) same={same} regs {k.n_regs} spills {k.n_spills} shared {k.metadata.shared}", flush=True)
     del lc, dc; torch.cuda.empty_cache()
