"""Launch sweep of the selection dk/dv kernel (notebook 06b): rows per step x num_warps (`_dkdv_launch`) x num_stages, timing
`sel_bwd` (dq, the inversion and dk/dv; only dk/dv's launch changes) on random q, k with `select_blocks_triton`'s picks, bf16, one GPU.
Usage: python3 scripts/sweep_sel_dkdv.py OUT.json"""
import sys, json, math, itertools
import torch, triton
import nsa_nb.kernels.nsa as kn
import nsa_nb.kernels.selection as ks
from nsa_nb.config import NSAConfig

if len(sys.argv) < 2: sys.exit(__doc__)
cfg, meta0, tile0, launch0, rows = NSAConfig(), ks._sel_meta, ks._tile_meta, ks._dkdv_launch, []
for shape, (B, T, HQ, H, K) in dict(model125m=(16, 2048, 12, 2, 64), model125m_32k=(1, 32768, 12, 2, 64), paper_16k=(1, 16384, 64, 4, 128)).items():
    torch.manual_seed(0)
    q, k, v = [torch.randn(B, T, h, K, device='cuda', dtype=torch.bfloat16) for h in (HQ, H, H)]
    N = (T - cfg.l) // cfg.d + 1
    kc = torch.randn(B, N, H, K, device='cuda', dtype=torch.bfloat16)
    idx = kn.select_blocks_triton(q, kc, torch.zeros(B, T, HQ, device='cuda'), cfg)   # lse 0: the picks only need an order
    o, lse = ks.sel_fwd(q, k, v, idx, cfg.l_sel, 1 / math.sqrt(K))
    do = torch.randn_like(o)
    ref, dq_meta = None, {one: ks._tile_meta(HQ // H, K, K, cfg.l_sel, cfg.n_sel, one) for one in (False, True)}
    ks._tile_meta = lambda *a: dict(dq_meta[a[-1]])                             # dq keeps its launches: only dk/dv varies
    for br, nw, ns in itertools.product((32, 64, 128), (2, 4, 8), (1, 2, 3)):
        ks._dkdv_launch = lambda BK, BV, br=br, nw=nw: dict(BR=br, num_warps=nw)
        ks._sel_meta = lambda *a, ns=ns: meta0(*a) | dict(num_stages=ns)
        r = dict(shape=shape, B=B, T=T, rows=br, num_warps=nw, num_stages=ns)
        try:
            g = ks.sel_bwd(q, k, v, idx, o, lse, do, cfg.l_sel, 1 / math.sqrt(K))
            ref = ref or g
            r['max_abs_diff'] = max((a.float() - b.float()).abs().max().item() for a, b in zip(g, ref))
            r['bwd_ms'] = triton.testing.do_bench(lambda: ks.sel_bwd(q, k, v, idx, o, lse, do, cfg.l_sel, 1 / math.sqrt(K)))
        except Exception as e: r['error'] = f"{type(e).__name__}: {str(e)[:120]}"
        print(json.dumps(r), flush=True); rows.append(r)
    ks._sel_meta, ks._tile_meta, ks._dkdv_launch = meta0, tile0, launch0
    json.dump(rows, open(sys.argv[1], 'w'), indent=1)
