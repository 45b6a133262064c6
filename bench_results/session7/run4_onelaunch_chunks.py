# the one-launch prototype with small compressed chunks (SPLIT_WAVES 4..16), paper shape B=8 and 125M B=8 at 64k
import os, sys, json, time, torch
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); sys.path.insert(0, "scripts")
import nsa_nb.decode as D
from nsa_nb.decode import layer_cache, fill_random_, _time_steps, sdpa_decode
import proto_onelaunch as fused
from run3_onelaunch_variants import layer
for shape, B in (('paper', 8), ('m125', 8)):
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
    for w in (4, 8, 16):
        D.SPLIT_WAVES = w
        for lag, ph in ((2, 4), (4, 4), (8, 4), (16, 4), (4, 1)):
            kw = dict(lag=lag, phases=ph, nap=0)
            o, i, _ = fused.nsa_decode_fused(q, lc, pos, g, attn.cfg, count=False, **kw); torch.cuda.synchronize()
            same = ph < 4 or bool((i == i0).all()) and (o.float() - o0.float()).abs().max().item() < 1e-2
            ms = _time_steps(lambda: fused.nsa_decode_fused(q, lc, pos, g, attn.cfg, count=False, **kw), 200, 10, True)
            print(f"  waves {w} (NSc {D._split(lc.kc.shape[2], 64, B * attn.n_kv, q.device)[1]}) lag {lag} phases {ph}: {ms*1e3:.1f} us ({dense/ms:.2f}x) same={same}", flush=True)
        D.SPLIT_WAVES = 2
    del lc, dc; torch.cuda.empty_cache()
