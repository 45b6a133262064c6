"""The banded kernels (notebook 06a: compressed branch and window, forward and backward) before and after their loops
skip the mask on whole tiles, in one run on one GPU: commit 6814ec8's module (git show 6814ec8:nsa_nb/kernels/banded.py >
.pk/banded_before.py) against this tree's, bf16, random inputs, at the paper's shape and the 125M model's; outputs compared.
Usage: python3 scripts/bench_banded_masks.py OUT.json"""
import sys, math
import torch, triton
import nsa_nb.kernels.banded as after
from nsa_nb.config import NSAConfig
from _versions import load_old, recorder

if len(sys.argv) != 2: sys.exit(__doc__)
before = load_old('kernels.banded_before', '.pk/banded_before.py')
bench = lambda f: triton.testing.do_bench(f, warmup=25, rep=200, return_mode='median')
record, cfg = recorder(sys.argv[1]), NSAConfig()
rel = lambda a, b: ((a.float() - b.float()).norm() / b.float().norm()).item()
for shape, B, T, HQ, H, K in (('model125m', 16, 2048, 12, 2, 64), ('model125m', 1, 65536, 12, 2, 64),
                              ('paper', 1, 16384, 64, 4, 128), ('paper', 1, 65536, 64, 4, 128)):
    for branch in ('compressed', 'window'):
        torch.manual_seed(0)
        S = T if branch == 'window' else (T - cfg.l) // cfg.d + 1
        q, do = [torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16) for _ in range(2)]
        k, v = [torch.randn(B, S, H, K, device='cuda', dtype=torch.bfloat16) for _ in range(2)]
        args = ((1, 0), cfg.w) if branch == 'window' else ((cfg.d, cfg.l - 1), None)
        sc = 1 / math.sqrt(K)
        r = dict(shape=shape, branch=branch, B=B, T=T)
        for name, m in (('before', before), ('after', after)):
            o, lse = m.banded_fwd(q, k, v, *args, sc)
            g = m.banded_bwd(q, k, v, o, lse, do, *args, sc)
            r[f'fwd_{name}_ms'] = bench(lambda: m.banded_fwd(q, k, v, *args, sc))
            r[f'bwd_{name}_ms'] = bench(lambda: m.banded_bwd(q, k, v, o, lse, do, *args, sc))
            r[name] = (o, lse, *g)
        a, b = r.pop('after'), r.pop('before')
        r['max_rel_diff'] = max(rel(x, y) for x, y in zip(a, b))
        record(r)
