# Three versions of the Triton decode core in one run, against dense SDPA decode, on the 125M shape (bf16, CUDA graph replays):
# 'before' = the first version (commit 2cc39e2), 'v1' = four launches with top-n by argmax rounds (14e2e62), 'after' = this tree's.
# The old modules are taken from git first (on a machine with the history), then carried to the GPU node:
#   mkdir -p .pk && git show 2cc39e2:nsa_nb/decode.py > .pk/decode_before.py && git show 14e2e62:nsa_nb/decode.py > .pk/decode_v1.py
#   python3 scripts/bench_decode_versions.py OUT.json        (also prints a kernel-time profile of 50 eager steps at batch 1, 64k)
import sys, json, torch, importlib.util
sys.path.insert(0, '.pk')
import nsa_nb.decode as new
spec = importlib.util.spec_from_file_location('nsa_nb.decode_before', '.pk/decode_before.py')   # a module of nsa_nb: its relative imports resolve
old = importlib.util.module_from_spec(spec); sys.modules[spec.name] = old; spec.loader.exec_module(old)
spec1 = importlib.util.spec_from_file_location('nsa_nb.decode_v1', '.pk/decode_v1.py')
v1 = importlib.util.module_from_spec(spec1); sys.modules[spec1.name] = v1; spec1.loader.exec_module(v1)
nsa_decode_triton2 = v1.nsa_decode_triton                                  # 'two' below: version 1 (four launches, top-n by argmax rounds)
from nsa_nb.decode import _bench_model, layer_cache, fill_random_, _time_steps, sdpa_decode
model = _bench_model('nsa', 'configs/m7c_125m.yaml', torch.bfloat16); attn = model.blocks[0].attn
dmodel = _bench_model('dense', 'configs/m7c_125m.yaml', torch.bfloat16); dattn = dmodel.blocks[0].attn
rows = []
for B in (1, 8):
    for T in (8192, 32768, 65536, 131072):
        lc = fill_random_(layer_cache(attn, B, T + 200), 0); lc.count_reads = False
        dc = fill_random_(layer_cache(dattn, B, T + 200), 0)
        pos = torch.full((B,), T, device='cuda', dtype=torch.long)
        q = torch.randn(B, attn.n_heads, attn.d_k, device='cuda', dtype=torch.bfloat16)
        g = torch.rand(B, attn.n_heads, 3, device='cuda', dtype=q.dtype)
        o1, i1, _ = old.nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False); o2, i2, _ = new.nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False)
        same_idx = bool((i1 == i2).all()); err = ((o1.float() - o2.float()).abs().max()).item()
        r = dict(B=B, T=T, same_idx=same_idx, max_abs_diff=err)
        fns = [('dense', lambda: sdpa_decode(q[:, :, None], dc.k[:, :, :T + 1], dc.v[:, :, :T + 1])),
               ('nsa_before', lambda: old.nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False)),
               ('nsa_after', lambda: new.nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False))]
        if nsa_decode_triton2 is not None:
            try:
                for _ in range(3): o3, i3, _ = nsa_decode_triton2(q, lc, pos, g, attn.cfg, count=False)
                r['two_same_idx'] = bool((i3 == i2).all()); r['two_max_abs_diff'] = (o3.float() - o2.float()).abs().max().item()
                fns.append(('nsa_two', lambda: nsa_decode_triton2(q, lc, pos, g, attn.cfg, count=False)))
            except Exception as e: print('two-launch variant failed:', type(e).__name__, str(e)[:300])
        for name, fn in fns:
            try: r[name + '_ms'] = _time_steps(fn, 200, 10, True)
            except Exception as e: print(name, 'failed:', type(e).__name__, str(e)[:300])
        r['speedup_after'] = r['dense_ms'] / r['nsa_after_ms']; r['speedup_before'] = r['dense_ms'] / r['nsa_before_ms']
        if 'nsa_two_ms' in r: r['speedup_two'] = r['dense_ms'] / r['nsa_two_ms']
        rows.append(r); print(json.dumps(r), flush=True)
        del lc, dc; torch.cuda.empty_cache()
print(f"{'B':>2} {'T':>7} {'dense ms':>9} {'before ms':>9} {'after ms':>9} {'v1 ms':>9} {'x before':>8} {'x after':>8} {'x v1':>8} idx_same(before) idx_same(v1) v1_diff")
for r in rows: print(f"{r['B']:>2} {r['T']:>7} {r['dense_ms']:9.4f} {r['nsa_before_ms']:9.4f} {r['nsa_after_ms']:9.4f} {r.get('nsa_two_ms', float('nan')):9.4f} {r['speedup_before']:8.2f} {r['speedup_after']:8.2f} {r.get('speedup_two', float('nan')):8.2f} {r['same_idx']} {r.get('two_same_idx')} {r.get('two_max_abs_diff')}")
json.dump(rows, open(sys.argv[1], 'w'), indent=1)
# where the time goes: kernel times of the new step at batch 1, 64k (eager, 50 calls)
from torch.profiler import profile, ProfilerActivity
B, T = 1, 65536
lc = fill_random_(layer_cache(attn, B, T + 200), 0); lc.count_reads = False
pos = torch.full((B,), T, device='cuda', dtype=torch.long)
q = torch.randn(B, attn.n_heads, attn.d_k, device='cuda', dtype=torch.bfloat16); g = torch.rand(B, attn.n_heads, 3, device='cuda', dtype=q.dtype)
for _ in range(5): new.nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False)
torch.cuda.synchronize()
with profile(activities=[ProfilerActivity.CUDA]) as prof:
    for _ in range(50): new.nsa_decode_triton(q, lc, pos, g, attn.cfg, count=False)
    torch.cuda.synchronize()
print(prof.key_averages().table(sort_by='cuda_time_total', row_limit=12))
if nsa_decode_triton2 is not None:
    for _ in range(5): nsa_decode_triton2(q, lc, pos, g, attn.cfg, count=False)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(50): nsa_decode_triton2(q, lc, pos, g, attn.cfg, count=False)
        torch.cuda.synchronize()
    print(prof.key_averages().table(sort_by='cuda_time_total', row_limit=8))
