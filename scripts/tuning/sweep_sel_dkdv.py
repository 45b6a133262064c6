"""Launch sweep of the selection dk/dv kernel (notebook 06b): rows per step x num_warps x num_stages (`SelTuning.dkdv`),
timing `sel_bwd` (dq, the inversion and dk/dv; only dk/dv's launch changes) on random q, k with `select_blocks_triton`'s
picks, bf16, one GPU. About 10 minutes on one H100, most of it compiling.
Usage: python3 scripts/tuning/sweep_sel_dkdv.py OUT.json"""
import sys, json, math, itertools
import torch, triton
import nsa_nb.kernels.nsa as kn
import nsa_nb.kernels.selection as ks
from nsa_nb.kernels.selection import SelTuning
from nsa_nb.config import NSAConfig

if len(sys.argv) < 2: sys.exit(__doc__)
cfg, rows = NSAConfig(), []
for shape, (B, T, HQ, H, K) in dict(model125m=(16, 2048, 12, 2, 64), model125m_32k=(1, 32768, 12, 2, 64), paper_16k=(1, 16384, 64, 4, 128)).items():
    torch.manual_seed(0)
    q, k, v = [torch.randn(B, T, h, K, device='cuda', dtype=torch.bfloat16) for h in (HQ, H, H)]
    N = (T - cfg.l) // cfg.d + 1
    kc = torch.randn(B, N, H, K, device='cuda', dtype=torch.bfloat16)
    idx = kn.select_blocks_triton(q, kc, torch.zeros(B, T, HQ, device='cuda'), cfg)   # lse 0: the picks only need an order
    o, lse = ks.sel_fwd(q, k, v, idx, cfg.l_sel, 1 / math.sqrt(K))
    do = torch.randn_like(o)
    ref = None
    for dkdv in [None] + list(itertools.product((32, 64, 128), (2, 4, 8), (1, 2, 3))):   # None: the default rule
        tune = SelTuning(dkdv=dkdv)
        r = dict(shape=shape, B=B, T=T, **dict(zip(('rows_per_step', 'num_warps', 'num_stages'), dkdv or ('default',) * 3)))
        try:
            g = ks.sel_bwd(q, k, v, idx, o, lse, do, cfg.l_sel, 1 / math.sqrt(K), tune=tune)
            ref = ref or g
            r['max_abs_diff'] = max((a.float() - b.float()).abs().max().item() for a, b in zip(g, ref))
            r['sel_bwd_ms'] = triton.testing.do_bench(lambda: ks.sel_bwd(q, k, v, idx, o, lse, do, cfg.l_sel, 1 / math.sqrt(K), tune=tune))
        except Exception as e: r['error'] = f"{type(e).__name__}: {str(e)[:120]}"
        print(json.dumps(r), flush=True); rows.append(r)
    json.dump(rows, open(sys.argv[1], 'w'), indent=1)
