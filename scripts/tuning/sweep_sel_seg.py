"""`SelTuning.seg` (queries per program of the selected branch's dk/dv kernel; blocks read by more queries write one fp32
partial per segment, summed by a second kernel) swept on one GPU, bf16, on the blocks that random q, k select:
`selected_attention_triton` forward+backward (only dk/dv and their reduction change), at the paper's heads and the 125M
model's at B=1, T=64k, and the 125M model's at its training batch (B=16, T=2048). Gradients are compared with the first seg's.
About 3 minutes on one H100.
Usage: python3 scripts/tuning/sweep_sel_seg.py OUT.json [SEGS]      (SEGS comma-separated, in the order timed; default 256,128,512,1024,2048,4096)"""
import sys, torch, triton
import nsa_nb.kernels.selection as sel
from nsa_nb.kernels.selection import SelTuning
from nsa_nb.config import NSAConfig
from _common import random_selection, recorder

if len(sys.argv) not in (2, 3): sys.exit(__doc__)
segs = [int(x) for x in (sys.argv[2] if len(sys.argv) == 3 else '256,128,512,1024,2048,4096').split(',')]
record, cfg = recorder(sys.argv[1]), NSAConfig()
bench = lambda f: triton.testing.do_bench(f, warmup=10, rep=200, return_mode='median')
for shape, (B, T, HQ, H, K) in dict(paper=(1, 65536, 64, 4, 128), model125m=(1, 65536, 12, 2, 64), train2k=(16, 2048, 12, 2, 64)).items():
    torch.manual_seed(0)
    idx = random_selection(B, T, HQ, H, K, cfg).to(torch.int32).contiguous()
    q, k, v = [torch.randn(B, T, h, K, device='cuda', dtype=torch.bfloat16, requires_grad=True) for h in (HQ, H, H)]
    do = torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16)
    ref = None
    for seg in segs:
        tune = SelTuning(seg=seg)
        step = lambda: torch.autograd.grad(sel.selected_attention_triton(q, k, v, idx, cfg.l_sel, tune=tune)[0], (q, k, v), do)
        got = step(); ref = ref or got
        record(dict(shape=shape, B=B, T=T, seg=seg, default=seg == SelTuning().seg, sel_fwdbwd_ms=bench(step),
                    max_abs_diff_vs_first=max((a.float() - b.float()).abs().max().item() for a, b in zip(got, ref))))
