"""The scores kernel's step (`SCORES_STEP` compressed blocks; the spill into later blocks carried in registers) against an
older `nsa_nb/kernels/nsa.py` (commit 4834072: the spill through the score rows, steps of ~1,024 group-summed scores), at the
paper's shape and the 125M model's, bf16, B=1, random q, k, one GPU: selection (scores + top-n) ms, and whether each picks the
same blocks as the older one.
  git show 4834072:nsa_nb/kernels/nsa.py > .pk/nsa_prev.py    (on a machine with the history; carry .pk to the GPU node)
  python3 scripts/sweep_scores.py OUT.json [.pk/nsa_prev.py]"""
import sys
import torch, triton
import nsa_nb.kernels.nsa as kn
from nsa_nb.config import NSAConfig
from _versions import load_old, recorder, selection_cases

if len(sys.argv) not in (2, 3): sys.exit(__doc__)
before = load_old('kernels.nsa_prev', sys.argv[2] if len(sys.argv) > 2 else '.pk/nsa_prev.py')
bench = lambda f: triton.testing.do_bench(f, warmup=25, rep=200)
record, cfg = recorder(sys.argv[1]), NSAConfig()
for shape, T, H, q, kc, lse in selection_cases(cfg):
    ref = before.select_blocks_triton(q, kc, lse, cfg)
    runs = [('before', before, None)] + [('after', kn, s) for s in (32, 64, 128, 64)]   # 64 twice: the spread
    for name, m, step in runs:
        if step: kn.SCORES_STEP = step
        got = m.select_blocks_triton(q, kc, lse, cfg)
        r = dict(shape=shape, T=T, tree=name, step=step, same_rows=(got == ref).all(-1).float().mean().item(),
                 ms=bench(lambda: m.select_blocks_triton(q, kc, lse, cfg)))
        record(r)
    kn.SCORES_STEP = 64
