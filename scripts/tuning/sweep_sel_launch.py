"""The selected branch's forward / dq launch settings (`SelTuning.num_warps`, `num_stages`), swept on one GPU, bf16, B=1,
T=64k, on the blocks that random q, k select (the kernel benchmark's inputs): the forward kernel alone (its tiles made
beforehand) and `selected_attention_triton` forward+backward (dq changes with the setting, dk/dv does not). Outputs and
gradients are checked against the default setting's.
About 5 minutes on one H100. Usage: python3 scripts/tuning/sweep_sel_launch.py OUT.json"""
import sys, math, torch, triton
import nsa_nb.kernels.selection as sel
from nsa_nb.kernels.selection import SelTuning
from nsa_nb.config import NSAConfig
from _common import random_selection, recorder

if len(sys.argv) != 2: sys.exit(__doc__)
record, cfg = recorder(sys.argv[1]), NSAConfig()
bench = lambda f: triton.testing.do_bench(f, warmup=10, rep=200, return_mode='median')
for shape, (HQ, H, K) in (('paper', (64, 4, 128)), ('model125m', (12, 2, 64))):
    T = 65536
    torch.manual_seed(0)
    idx = random_selection(1, T, HQ, H, K, cfg).to(torch.int32).contiguous()
    q, k, v = [torch.randn(1, T, h, K, device='cuda', dtype=torch.bfloat16, requires_grad=True) for h in (HQ, H, H)]
    do = torch.randn(1, T, HQ, K, device='cuda', dtype=torch.bfloat16)
    tiles, ref = sel.sel_tiles(idx, HQ // H), None
    for launch in ({}, dict(num_warps=4), dict(num_stages=3), dict(num_warps=4, num_stages=3), dict(num_stages=4), dict(num_warps=4, num_stages=4), dict(num_warps=8)):
        tune = SelTuning(**launch)
        with torch.no_grad(): fwd = bench(lambda: sel.sel_fwd(q, k, v, idx, cfg.l_sel, 1 / math.sqrt(K), tiles, tune=tune))
        fb = bench(lambda: torch.autograd.grad(sel.selected_attention_triton(q, k, v, idx, cfg.l_sel, tune=tune)[0], (q, k, v), do))
        o = sel.selected_attention_triton(q, k, v, idx, cfg.l_sel, tune=tune)[0]
        got = [o] + list(torch.autograd.grad(o, (q, k, v), do))
        ref = ref or got
        record(dict(shape=shape, T=T, launch=launch, sel_fwd_kernel_ms=fwd, sel_fwdbwd_ms=fb,
                    max_abs_diff=max((a.float() - b.float()).abs().max().item() for a, b in zip(got, ref))))
