"""Blocks per step of the selected forward's one-token launch (`SelTuning.fwd_blocks`): a token's G heads (padded to 16
rows) take 1, 2 or 4 of its blocks' keys side by side per product, with the launch's warps and stages, at the 125M
model's training shapes and the paper's head shapes, on the blocks that random q, k select (and, at 4 x 8k, queries
correlated along the sequence: AR(1), rho 0.9). Each row also gives the largest difference from fwd_blocks=1.
Usage: python3 scripts/tuning/sweep_sel_fwd_blocks.py OUT.json"""
import sys, math, torch, triton
import nsa_nb.kernels.selection as sel
from nsa_nb.kernels.selection import SelTuning
from nsa_nb.config import NSAConfig
from _common import recorder, selection_of, ar1

record, cfg = recorder(sys.argv[1]), NSAConfig()
bench = lambda f: triton.testing.do_bench(f, warmup=5, rep=60, return_mode='median')
grid = [dict(), dict(fwd_blocks=2), dict(fwd_blocks=4), dict(fwd_blocks=2, num_warps=4), dict(fwd_blocks=2, num_warps=8),
        dict(fwd_blocks=2, num_stages=3), dict(fwd_blocks=4, num_warps=8), dict(fwd_blocks=4, num_stages=3),
        dict(num_stages=3)]
shapes = [(16, 2048, 12, 2, 64, 64, 0), (4, 8192, 12, 2, 64, 64, 0), (4, 8192, 12, 2, 64, 64, 0.9),
          (1, 32768, 12, 2, 64, 64, 0), (1, 65536, 12, 2, 64, 64, 0), (1, 8192, 64, 4, 128, 128, 0),
          (1, 65536, 64, 4, 128, 128, 0), (1, 16384, 64, 4, 192, 128, 0)]
for B, T, HQ, H, K, V, rho in shapes:
    torch.manual_seed(0)
    q = ar1(B, T, HQ, K, rho).bfloat16()
    idx = selection_of(q, torch.randn(B, T, H, K, device='cuda', dtype=torch.bfloat16), cfg)
    k, v = torch.randn(B, T, H, K, device='cuda', dtype=torch.bfloat16), torch.randn(B, T, H, V, device='cuda', dtype=torch.bfloat16)
    ref = None
    for launch in grid:
        tune = SelTuning(**launch)
        f = lambda: sel.sel_fwd(q, k, v, idx, cfg.l_sel, 1 / math.sqrt(K), tune=tune)
        try: o = f()[0]
        except Exception as e:   # e.g. out of shared memory at a large head dim
            record(dict(B=B, T=T, HQ=HQ, H=H, K=K, V=V, rho=rho, launch=launch, error=f"{type(e).__name__}: {str(e)[:120]}")); continue
        ref = o if ref is None else ref
        record(dict(B=B, T=T, HQ=HQ, H=H, K=K, V=V, rho=rho, launch=launch, fwd_ms=round(bench(f), 4),
                    max_abs_diff=float((o.float() - ref.float()).abs().max())))
