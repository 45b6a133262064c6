# one run: current decode core vs the one-launch prototype (several LAG / SPLIT_WAVES), dense SDPA beside, graph replays
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
variants = [a for a in sys.argv[2:]]   # e.g. lag2 lag2w4 (lag L, split waves W)
def setw(w): D.SPLIT_WAVES = w
rows = []
for shape in ('paper', 'm125'):
    attn, dattn = layer('nsa', shape), layer('dense', shape)
    for B, T in ((8, 65536), (8, 32768), (8, 8192), (1, 65536)):
        lc = fill_random_(layer_cache(attn, B, T + 200), 0); lc.count_reads = False
        dc = fill_random_(layer_cache(dattn, B, T + 200), 0)
        pos = torch.full((B,), T, device='cuda', dtype=torch.long)
        q = torch.randn(B, attn.n_heads, attn.d_k, device='cuda', dtype=torch.bfloat16)
        g = torch.rand(B, attn.n_heads, 3, device='cuda', dtype=q.dtype)
        r = dict(shape=shape, B=B, T=T)
        o0, i0, _ = D.nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False)
        r['dense'] = _time_steps(lambda: sdpa_decode(q[:, :, None], dc.k[:, :, :T + 1], dc.v[:, :, :T + 1]), 200, 10, True)
        r['cur'] = _time_steps(lambda: D.nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False), 200, 10, True)
        for v in variants:
            lag, w = (int(x) for x in v[3:].split('w')) if 'w' in v else (int(v[3:]), 2)
            setw(w)
            torch.cuda.synchronize(); t0 = time.time()
            o, i, _ = fused.nsa_decode_fused(q, lc, pos, g, attn.cfg, count=False, lag=lag, nap=0); torch.cuda.synchronize()
            r[v + '_same'] = bool((i == i0).all()); r[v + '_diff'] = (o.float() - o0.float()).abs().max().item()
            r[v] = _time_steps(lambda: fused.nsa_decode_fused(q, lc, pos, g, attn.cfg, count=False, lag=lag, nap=0), 200, 10, True)
            setw(2)
        print(json.dumps(r), flush=True)
        print(f"{shape} B={B} T={T}: dense {r['dense']*1e3:.1f} us, cur {r['cur']*1e3:.1f} us ({r['dense']/r['cur']:.2f}x); " +
              ', '.join(f"{v} {r[v]*1e3:.1f} ({r['dense']/r[v]:.2f}x{'' if r[v+'_same'] else ' DIFF-IDX'})" for v in variants), flush=True)
        rows.append(r)
        del lc, dc; torch.cuda.empty_cache()
json.dump(rows, open(sys.argv[1], 'w'), indent=1)
