"""The scores kernel (notebook 06c) before and after it walks each compressed key once and sums the group's heads first
(commit 86179f5's version: R = 5 strided taps a selection block), in one run on one GPU: `select_blocks_triton` (scores +
top-n) of both, bf16, random q, k, at the paper's shape and the 125M model's; whether both pick the same blocks; then a sweep of the new loop's pipeline stages and step (compressed blocks; until 2026-11-24 a group-summed tile size, queries x compressed blocks) at 64k.
Take the old module from git first, then carry .pk to the GPU node:
  mkdir -p .pk && git show 86179f5:nsa_nb/kernels/nsa.py > .pk/nsa_before.py
  python3 scripts/bench_scores.py OUT.json"""
import sys, math
import torch, triton
import nsa_nb.kernels.nsa as after
from nsa_nb.config import NSAConfig
from nsa_nb.compression import Compressor
from nsa_nb.kernels.banded import compressed_attention_triton
from _versions import load_old, recorder

if len(sys.argv) != 2: sys.exit(__doc__)
before = load_old('kernels.nsa_before', '.pk/nsa_before.py')
bench = lambda f: triton.testing.do_bench(f, warmup=25, rep=200, return_mode='median')
record, cfg = recorder(sys.argv[1]), NSAConfig()
SHAPES = dict(paper=(64, 4, 128), model125m=(12, 2, 64))
for shape, (HQ, H, K) in SHAPES.items():
    for B, T in ((16, 2048), (1, 8192), (1, 16384), (1, 32768), (1, 65536)):
        torch.manual_seed(0)
        q, k = torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16), torch.randn(B, T, H, K, device='cuda', dtype=torch.bfloat16)
        kc = Compressor(cfg.l, cfg.d, K)(k)
        _, lse = compressed_attention_triton(q, kc, kc, cfg.l, cfg.d)
        a, b = before.select_blocks_triton(q, kc, lse, cfg), after.select_blocks_triton(q, kc, lse, cfg)
        r = dict(shape=shape, B=B, T=T, same_rows=(a == b).all(-1).float().mean().item(),
                 before_ms=bench(lambda: before.select_blocks_triton(q, kc, lse, cfg)),
                 after_ms=bench(lambda: after.select_blocks_triton(q, kc, lse, cfg)))
        r['speedup'] = r['before_ms'] / r['after_ms']
        record(r)
        if T != 65536: continue
        for st in (1, 2, 3):
            for step in (32, 64, 128):
                after.SCORES_STAGES, after.SCORES_STEP = st, step
                try: ms = bench(lambda: after.select_blocks_triton(q, kc, lse, cfg))
                except Exception as e: ms = str(e)[:80]
                record(dict(shape=shape, T=T, scores_stages=st, scores_step=step, ms=ms))
        after.SCORES_STAGES, after.SCORES_STEP = 2, 64
