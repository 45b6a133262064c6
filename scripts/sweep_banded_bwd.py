"""Launch sweep of the banded backward (notebook 06a: the window's and the compressed branch's dk/dv and dq kernels, which
shared one tile choice, `_bwd_tiles`, until 2026-11-24; `sweep_banded_kernels.py` sweeps each kernel on its own): BM x BN x num_warps x num_stages, timing `banded_bwd` in bf16 on random q, k, v, one GPU.
With `long`, the compressed branch at T=64k instead (the paper's shape and the 125M model's, B=1), where its backward is largest.
Usage: python3 scripts/sweep_banded_bwd.py OUT.json [long]"""
import sys, json, math, itertools
import torch, triton
import nsa_nb.kernels.banded as kb
from nsa_nb.config import NSAConfig

if len(sys.argv) < 2: sys.exit(__doc__)
cfg, tiles0, rows = NSAConfig(), kb._bwd_tiles, []
long = sys.argv[2:] == ['long']
shapes = dict(paper_64k=(1, 65536, 64, 4, 128), model125m_64k=(1, 65536, 12, 2, 64)) if long else dict(model125m=(16, 2048, 12, 2, 64), paper_16k=(1, 16384, 64, 4, 128))
for shape, (B, T, HQ, H, K) in shapes.items():
    for branch in ('compressed',) if long else ('window', 'compressed') if shape == 'model125m' else ('window',):
        torch.manual_seed(0)
        S = T if branch == 'window' else (T - cfg.l) // cfg.d + 1
        q, do = [torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16) for _ in range(2)]
        k, v = [torch.randn(B, S, H, K, device='cuda', dtype=torch.bfloat16) for _ in range(2)]
        k_pos, w = ((1, 0), cfg.w) if branch == 'window' else ((cfg.d, cfg.l - 1), None)
        o, lse = kb.banded_fwd(q, k, v, k_pos, w, 1 / math.sqrt(K))
        ref = None
        for BM, BN, nw, ns in itertools.product((64, 128), (32, 64, 128), (4, 8), (1, 2)):
            kb._bwd_tiles = lambda G, K_, V_, BM=BM, BN=BN, nw=nw, ns=ns: (max(BM, triton.next_power_of_2(G)), BN, *tiles0(G, K_, V_)[2:4], nw, ns)
            r = dict(shape=shape, branch=branch, B=B, T=T, BM=BM, BN=BN, num_warps=nw, num_stages=ns)
            try:
                g = kb.banded_bwd(q, k, v, o, lse, do, k_pos, w, 1 / math.sqrt(K))
                ref = ref or g
                r['max_abs_diff'] = max((a.float() - b.float()).abs().max().item() for a, b in zip(g, ref))
                r['bwd_ms'] = triton.testing.do_bench(lambda: kb.banded_bwd(q, k, v, o, lse, do, k_pos, w, 1 / math.sqrt(K)))
            except Exception as e: r['error'] = f"{type(e).__name__}: {str(e)[:120]}"
            print(json.dumps(r), flush=True); rows.append(r)
        kb._bwd_tiles = tiles0
        r = dict(shape=shape, branch=branch, B=B, T=T, setting='default', bwd_ms=triton.testing.do_bench(lambda: kb.banded_bwd(q, k, v, o, lse, do, k_pos, w, 1 / math.sqrt(K))))
        print(json.dumps(r), flush=True); rows.append(r)
        json.dump(rows, open(sys.argv[1], 'w'), indent=1)
