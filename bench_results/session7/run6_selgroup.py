import os, sys, json, torch
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); sys.path.insert(0, 'scripts')
import nsa_nb.decode as D
from nsa_nb.decode import layer_cache, fill_random_, _time_steps, sdpa_decode
from torch.profiler import profile, ProfilerActivity
from proto_selgroup import decode_nb
from run3_onelaunch_variants import layer
NBS = (0, 2, 4, 8, 16)
rows = []
for shape, B, T in (('paper', 8, 65536), ('paper', 1, 65536), ('paper', 8, 8192), ('m125', 8, 65536), ('m125', 1, 65536), ('m125', 8, 8192), ('paper', 8, 131072)):
    attn, dattn = layer('nsa', shape), layer('dense', shape)
    lc = fill_random_(layer_cache(attn, B, T + 200), 0); lc.count_reads = False
    dc = fill_random_(layer_cache(dattn, B, T + 200), 0)
    pos = torch.full((B,), T, device='cuda', dtype=torch.long)
    q = torch.randn(B, attn.n_heads, attn.d_k, device='cuda', dtype=torch.bfloat16)
    g = torch.rand(B, attn.n_heads, 3, device='cuda', dtype=q.dtype)
    o0, i0, _ = D.nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False)
    r = dict(shape=shape, B=B, T=T, dense=_time_steps(lambda: sdpa_decode(q[:, :, None], dc.k[:, :, :T + 1], dc.v[:, :, :T + 1]), 200, 10, True))
    for nb in NBS:
        o, i, _ = decode_nb(nb, q, lc, pos, g, attn.cfg, count=False); torch.cuda.synchronize()
        r[f'same{nb}'] = bool((i == i0).all()) and bool((o == o0).all())
    for rep in (0, 1):
        for nb in NBS: r[f'nb{nb}_{rep}'] = _time_steps(lambda: decode_nb(nb, q, lc, pos, g, attn.cfg, count=False), 200, 10, True)
    rows.append(r)
    print(f"{shape} B={B} T={T}: dense {r['dense']*1e3:.1f}; " + '; '.join(f"nb{nb} {r[f'nb{nb}_0']*1e3:.1f}/{r[f'nb{nb}_1']*1e3:.1f} ({r['dense']/r[f'nb{nb}_0']:.2f}x){'' if r[f'same{nb}'] else ' DIFF'}" for nb in NBS), flush=True)
    if shape == 'paper' and T == 65536:
        for nb in (0, 4):
            fn = lambda: decode_nb(nb, q, lc, pos, g, attn.cfg, count=False)
            for _ in range(5): fn()
            torch.cuda.synchronize()
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                for _ in range(50): fn()
                torch.cuda.synchronize()
            print(f"--- nb{nb} B={B}\n" + prof.key_averages().table(sort_by='cuda_time_total', row_limit=5), flush=True)
    del lc, dc; torch.cuda.empty_cache()
json.dump(rows, open(sys.argv[1], 'w'), indent=1)
