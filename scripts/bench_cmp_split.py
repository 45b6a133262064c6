"""The compressed branch's backward (`banded_bwd`, notebook 06a) with the dk/dv query split of commit 0d85e4f (DKDV_SPLIT
queries per program, so one split per key tile below 4k tokens) against the split that also fills the SMs (`_dkdv_split`),
in one run on one GPU, bf16, random inputs; gradients compared. Usage: python3 scripts/bench_cmp_split.py OUT.json"""
import sys, math
import torch, triton
import nsa_nb.kernels.banded as kb
from nsa_nb.config import NSAConfig
from _versions import recorder

if len(sys.argv) != 2: sys.exit(__doc__)
record, cfg = recorder(sys.argv[1]), NSAConfig()
bench = lambda f: triton.testing.do_bench(f, warmup=25, rep=200, return_mode='median')
for B, T, HQ, H, K in ((16, 2048, 12, 2, 64), (4, 8192, 12, 2, 64), (1, 32768, 12, 2, 64), (16, 2048, 64, 4, 128), (1, 16384, 64, 4, 128), (1, 65536, 64, 4, 128)):
    torch.manual_seed(0)
    S = (T - cfg.l) // cfg.d + 1
    q, do = [torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16) for _ in range(2)]
    k, v = [torch.randn(B, S, H, K, device='cuda', dtype=torch.bfloat16) for _ in range(2)]
    args = ((cfg.d, cfg.l - 1), None, 1 / math.sqrt(K))
    o, lse = kb.banded_fwd(q, k, v, *args)
    run = lambda: kb.banded_bwd(q, k, v, o, lse, do, *args)
    new = run(); new_ms = bench(run)
    kb.DKDV_MIN_SPLIT = kb.DKDV_SPLIT                                   # the old rule: only DKDV_SPLIT
    old = run(); old_ms = bench(run)
    kb.DKDV_MIN_SPLIT = 256
    record(dict(B=B, T=T, HQ=HQ, H=H, K=K, before_ms=old_ms, after_ms=new_ms, speedup=old_ms / new_ms,
                max_rel_diff=max(((a.float() - b.float()).norm() / b.float().norm()).item() for a, b in zip(new, old))))
