"""Selection (scores + top-n) of this tree against an older `nsa_nb/kernels/nsa.py` (e.g. commit 6993c03's one top-n launch
per chunk, before the bands of rows), in one run on one GPU, bf16, B=1, random q, k: whether both pick the same blocks, and
each one's time, and its top-n alone on the first chunk of random scores (rows 0.., where the bands are narrowest).
  git show 6993c03:nsa_nb/kernels/nsa.py > .pk/nsa_6993.py    (on a machine with the history; carry .pk to the GPU node)
  python3 scripts/check_topn.py OUT.json .pk/nsa_6993.py"""
import sys
import torch, triton
import nsa_nb.kernels.nsa as after
from nsa_nb.config import NSAConfig
from _versions import load_old, recorder, selection_cases

if len(sys.argv) not in (2, 3): sys.exit(__doc__)
before = load_old('kernels.nsa_prev', sys.argv[2] if len(sys.argv) > 2 else '.pk/nsa_prev.py')
bench = lambda f: triton.testing.do_bench(f, warmup=25, rep=200)
record, cfg = recorder(sys.argv[1]), NSAConfig()
for shape, T, H, q, kc, lse in selection_cases(cfg):
    a, b = before.select_blocks_triton(q, kc, lse, cfg), after.select_blocks_triton(q, kc, lse, cfg)
    n_slc, tc = triton.cdiv(T, cfg.l_sel), min(T, after.SCORE_BYTES // (4 * H * triton.cdiv(T, cfg.l_sel)))
    sc = torch.rand(H, tc, n_slc, device='cuda')                           # top-n alone: one chunk of random scores
    idx = torch.empty(1, T, H, cfg.n_sel, device='cuda', dtype=torch.int32)
    r = dict(shape=shape, T=T, same_rows=(a == b).all(-1).float().mean().item(),
             select_before_ms=bench(lambda: before.select_blocks_triton(q, kc, lse, cfg)),
             select_after_ms=bench(lambda: after.select_blocks_triton(q, kc, lse, cfg)),
             topn_chunk_rows=tc, topn_before_ms=bench(lambda: before.topn_triton(sc, idx, 0, tc, cfg)),
             topn_after_ms=bench(lambda: after.topn_triton(sc, idx, 0, tc, cfg)))
    record(r)
