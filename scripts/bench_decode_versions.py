# Three versions of the Triton decode core in one run, against dense SDPA decode, on the 125M shape (bf16, CUDA graph replays):
# 'before' = the first version (commit 2cc39e2), 'v1' = four launches with top-n by argmax rounds (14e2e62), 'after' = this tree's.
# The old modules are taken from git first (on a machine with the history), then carried to the GPU node:
#   mkdir -p .pk && git show 2cc39e2:nsa_nb/decode.py > .pk/decode_before.py && git show 14e2e62:nsa_nb/decode.py > .pk/decode_v1.py
#   python3 scripts/bench_decode_versions.py OUT.json        (also prints a kernel-time profile of 50 eager steps at batch 1, 64k)
# (The committed run, bench_results/decode2/decode_v2_before_after_h100.*, was made before a tidy-up and names v1 'two' in its JSON.)
import sys, json
import torch
from torch.profiler import profile, ProfilerActivity
import nsa_nb.decode as after
from nsa_nb.decode import _bench_model, layer_cache, fill_random_, _time_steps, sdpa_decode
from _versions import load_old

versions = {'before': load_old('decode_before', '.pk/decode_before.py'), 'v1': load_old('decode_v1', '.pk/decode_v1.py'), 'after': after}
model = _bench_model('nsa', 'configs/m7c_125m.yaml', torch.bfloat16); attn = model.blocks[0].attn
dattn = _bench_model('dense', 'configs/m7c_125m.yaml', torch.bfloat16).blocks[0].attn

def inputs(B, T):
    "A random NSA cache of T tokens, the dense one, and one step's position, queries and gates at batch B."
    lc = fill_random_(layer_cache(attn, B, T + 200), 0); lc.count_reads = False
    pos = torch.full((B,), T, device='cuda', dtype=torch.long)
    q = torch.randn(B, attn.n_heads, attn.d_k, device='cuda', dtype=torch.bfloat16)
    return lc, fill_random_(layer_cache(dattn, B, T + 200), 0), pos, q, torch.rand(B, attn.n_heads, 3, device='cuda', dtype=q.dtype)

rows = []
for B in (1, 8):
    for T in (8192, 32768, 65536, 131072):
        lc, dc, pos, q, g = inputs(B, T)
        step = {v: (lambda m=m: m.nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False)) for v, m in versions.items()}
        o_a, i_a, _ = step['after']()
        r = dict(B=B, T=T)
        for v in ('before', 'v1'):                                                   # same blocks, same output?
            o, i, _ = step[v]()
            r[f'{v}_same_idx'], r[f'{v}_max_abs_diff'] = bool((i == i_a).all()), (o.float() - o_a.float()).abs().max().item()
        r['dense_ms'] = _time_steps(lambda: sdpa_decode(q[:, :, None], dc.k[:, :, :T + 1], dc.v[:, :, :T + 1]), 200, 10, True)
        for v in versions: r[f'{v}_ms'] = _time_steps(step[v], 200, 10, True); r[f'x_{v}'] = r['dense_ms'] / r[f'{v}_ms']
        rows.append(r); print(json.dumps(r), flush=True)
        del lc, dc; torch.cuda.empty_cache()
print(f"{'B':>2} {'T':>7} {'dense ms':>9} {'before ms':>9} {'v1 ms':>9} {'after ms':>9} {'x before':>8} {'x v1':>8} {'x after':>8} same_idx(before, v1)")
for r in rows: print(f"{r['B']:>2} {r['T']:>7} {r['dense_ms']:9.4f} {r['before_ms']:9.4f} {r['v1_ms']:9.4f} {r['after_ms']:9.4f} "
                      f"{r['x_before']:8.2f} {r['x_v1']:8.2f} {r['x_after']:8.2f} {r['before_same_idx']}, {r['v1_same_idx']}")
json.dump(rows, open(sys.argv[1], 'w'), indent=1)

# where the time goes: kernel times of 50 eager steps at batch 1, 64k, this version and v1
lc, _, pos, q, g = inputs(1, 65536)
for v in ('after', 'v1'):
    for _ in range(5): versions[v].nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(50): versions[v].nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False)
        torch.cuda.synchronize()
    print(f"--- {v}\n" + prof.key_averages().table(sort_by='cuda_time_total', row_limit=8))
