import os, sys, json, time, torch
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); sys.path.insert(0, "scripts")
import nsa_nb.decode as D
from nsa_nb.decode import layer_cache, fill_random_, _time_steps, sdpa_decode
from torch.profiler import profile, ProfilerActivity
import proto_twopass as twopass
from run3_onelaunch_variants import layer
VS = dict(w3k8=dict(win_at=3, k2_warps=8), w3k4=dict(win_at=3, k2_warps=4), w2k8=dict(win_at=2, k2_warps=8), w1k8=dict(win_at=1, k2_warps=8),
          w3k8v4=dict(win_at=3, k2_warps=8, waves=4), w2k4v4=dict(win_at=2, k2_warps=4, waves=4))
rows = []
for shape, B, T in (('paper', 8, 65536), ('paper', 1, 65536), ('paper', 8, 8192), ('m125', 8, 65536), ('m125', 1, 65536), ('m125', 8, 8192)):
    attn, dattn = layer('nsa', shape), layer('dense', shape)
    lc = fill_random_(layer_cache(attn, B, T + 200), 0); lc.count_reads = False
    dc = fill_random_(layer_cache(dattn, B, T + 200), 0)
    pos = torch.full((B,), T, device='cuda', dtype=torch.long)
    q = torch.randn(B, attn.n_heads, attn.d_k, device='cuda', dtype=torch.bfloat16)
    g = torch.rand(B, attn.n_heads, 3, device='cuda', dtype=q.dtype)
    o0, i0, _ = D.nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False)
    r = dict(shape=shape, B=B, T=T)
    r['dense'] = _time_steps(lambda: sdpa_decode(q[:, :, None], dc.k[:, :, :T + 1], dc.v[:, :, :T + 1]), 200, 10, True)
    for rep in (0, 1):
        r[f'cur{rep}'] = _time_steps(lambda: D.nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False), 200, 10, True)
        for name, kw in VS.items():
            if rep == 0:
                o, i, _ = twopass.nsa_decode_2pass(q, lc, pos, g, attn.cfg, count=False, **kw); torch.cuda.synchronize()
                r[name + '_same'] = bool((i == i0).all()); r[name + '_diff'] = (o.float() - o0.float()).abs().max().item()
            r[f'{name}{rep}'] = _time_steps(lambda: twopass.nsa_decode_2pass(q, lc, pos, g, attn.cfg, count=False, **kw), 200, 10, True)
    rows.append(r)
    print(f"{shape} B={B} T={T}: dense {r['dense']*1e3:.1f}; cur {r['cur0']*1e3:.1f}/{r['cur1']*1e3:.1f} ({r['dense']/r['cur0']:.2f}x); " +
          '; '.join(f"{n} {r[n+'0']*1e3:.1f}/{r[n+'1']*1e3:.1f} ({r['dense']/r[n+'0']:.2f}x){'' if r[n+'_same'] else ' DIFF'} d={r[n+'_diff']:.1e}" for n in VS), flush=True)
    if shape == 'paper' and B == 8 and T == 65536:
        for name, fn in (('cur', lambda: D.nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False)),
                         ('w3k8', lambda: twopass.nsa_decode_2pass(q, lc, pos, g, attn.cfg, count=False, win_at=3, k2_warps=8)),
                         ('w2k8', lambda: twopass.nsa_decode_2pass(q, lc, pos, g, attn.cfg, count=False, win_at=2, k2_warps=8))):
            for _ in range(5): fn()
            torch.cuda.synchronize()
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                for _ in range(50): fn()
                torch.cuda.synchronize()
            print(f"--- {name}\n" + prof.key_averages().table(sort_by='cuda_time_total', row_limit=6), flush=True)
    del lc, dc; torch.cuda.empty_cache()
json.dump(rows, open(sys.argv[1], 'w'), indent=1)
