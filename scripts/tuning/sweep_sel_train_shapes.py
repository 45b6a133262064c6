"""The selected branch's launch settings (`SelTuning` rows, union_frac, tokens_per_program, max_tile_g, num_warps) at the
125M model's training shapes, B=16 x 2k and B=4 x 8k (HQ=12, H=2, K=64), bf16, on the blocks that random q, k select:
`sel_fwd` alone and `selected_attention_triton` forward+backward. About 2 minutes on one H100.
Usage: python3 scripts/tuning/sweep_sel_train_shapes.py OUT.json"""
import sys, math, itertools, torch, triton
import nsa_nb.kernels.selection as sel
from nsa_nb.kernels.selection import SelTuning
from nsa_nb.config import NSAConfig
from _common import random_selection, recorder

if len(sys.argv) != 2: sys.exit(__doc__)
record, cfg = recorder(sys.argv[1]), NSAConfig()
bench = lambda f: triton.testing.do_bench(f, warmup=5, rep=50, return_mode='median')
grid = [dict()] + [dict(rows=r, union_frac=u, tokens_per_program=p)
                   for r, u, p in itertools.product((32, 64, 128), (0.25, 0.5, 1.0), (1, 4, 8))]
grid += [dict(max_tile_g=4), dict(max_tile_g=4, tokens_per_program=8), dict(num_warps=2), dict(num_warps=8)]
for B, T in ((16, 2048), (4, 8192)):
    HQ, H, K = 12, 2, 64
    torch.manual_seed(0)
    idx = random_selection(B, T, HQ, H, K, cfg).to(torch.int32).contiguous()
    q, k, v = [torch.randn(B, T, h, K, device='cuda', dtype=torch.bfloat16, requires_grad=True) for h in (HQ, H, H)]
    do = torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16)
    for launch in grid:
        tune = SelTuning(**launch)
        with torch.no_grad(): fwd = bench(lambda: sel.sel_fwd(q, k, v, idx, cfg.l_sel, 1 / math.sqrt(K), tune=tune))
        fb = bench(lambda: torch.autograd.grad(sel.selected_attention_triton(q, k, v, idx, cfg.l_sel, tune=tune)[0],
                                               (q, k, v), do))
        record(dict(B=B, T=T, launch=launch, fwd_ms=round(fwd, 4), fwdbwd_ms=round(fb, 4)))
