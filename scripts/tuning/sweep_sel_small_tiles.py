"""Tiles of two tokens at G=6 (SelTuning rows=16): the selected forward with rows 16/32/64 and several union fractions
at the 125M model's training shapes, on the blocks that random q, k select and on those that queries correlated along the
sequence (AR(1), rho 0.9) select. Usage: python3 scripts/tuning/sweep_sel_small_tiles.py OUT.json"""
import sys, math, torch, triton
import nsa_nb.kernels.selection as sel
from nsa_nb.kernels.selection import SelTuning
from nsa_nb.config import NSAConfig
from _common import recorder, selection_of, ar1

record, cfg = recorder(sys.argv[1]), NSAConfig()
bench = lambda f: triton.testing.do_bench(f, warmup=5, rep=60, return_mode='median')
def selection(B, T, HQ, H, K, rho):
    torch.manual_seed(0)
    q = ar1(B, T, HQ, K, rho).bfloat16()
    return q, selection_of(q, torch.randn(B, T, H, K, device='cuda', dtype=torch.bfloat16), cfg)
grid = [dict(), dict(rows=16, union_frac=1.0), dict(rows=16, union_frac=0.75), dict(rows=16, union_frac=0.5),
        dict(rows=32, union_frac=1.0), dict(rows=32, union_frac=0.5), dict(rows=64, union_frac=1.0),
        dict(rows=16, union_frac=1.0, num_warps=4), dict(rows=16, union_frac=1.0, num_stages=3)]
for B, T in ((16, 2048), (4, 8192), (1, 32768)):
    HQ, H, K = 12, 2, 64
    for rho in (0, 0.9):
        q, idx = selection(B, T, HQ, H, K, rho)
        k, v = [torch.randn(B, T, H, K, device='cuda', dtype=torch.bfloat16) for _ in range(2)]
        ref = None
        for launch in grid:
            tune = SelTuning(**launch)
            f = lambda: sel.sel_fwd(q, k, v, idx, cfg.l_sel, 1 / math.sqrt(K), tune=tune)
            o = f()[0]; ref = o if ref is None else ref
            record(dict(B=B, T=T, rho=rho, launch=launch, fwd_ms=round(bench(f), 4),
                        max_abs_diff=float((o.float() - ref.float()).abs().max())))
