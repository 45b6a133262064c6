"""Whether the selected branch's loops wait on their index loads: `sel_fwd` and `sel_bwd` of the package against two
patched copies of notebook 06b's module, written beside it for the run and removed after. `idx_ahead`: each loop
loads its next index one step early (the forward's and dq's block ids, the dk/dv kernel's query list); `rows_ahead`
(from the package's module): the dk/dv kernel loads the next chunk's q, dO, lse and delta during this one, its query
list two ahead. Random q, k (select_blocks_triton's picks), bf16, the 125M model's heads and the paper's at 64k;
checks that all three give the same outputs. About a minute on one H100.
Usage: python3 scripts/tuning/ab_sel_prefetch.py"""
import math, pathlib, importlib, atexit
import torch, triton
import nsa_nb.kernels.nsa as kn
import nsa_nb.kernels.selection as base
from nsa_nb.config import NSAConfig

src = pathlib.Path(base.__file__).read_text()
DKDV_LOOP = ("    for f0 in range(tl.load(SEG_START + i_seg).to(tl.int64) * G, end, BR):   # BR pairs of the queries that selected j\n"
             "        f = f0 + o_r\n        m_r = f < end\n"
             "        t = tl.load(QLIST + f // G, mask=m_r, other=0).to(tl.int64)                 # [BR] each row's query\n")
def patch_idx(s):
    "block ids one iteration ahead (fwd, dq); query list one chunk ahead (dk/dv)"
    n0 = s.count("        j = tl.load(BLK + lst + i)\n")
    s = s.replace("    for i in range(nblk):", "    j_nx = tl.load(BLK + lst, mask=nblk > 0, other=-1)\n    for i in range(nblk):")
    s = s.replace("        j = tl.load(BLK + lst + i)\n",
                  "        j = j_nx\n        j_nx = tl.load(BLK + lst + i + 1, mask=i + 1 < nblk, other=-1)\n")
    old = DKDV_LOOP
    assert n0 == 2 and old in s, (n0, old in s)
    new = ("    start = tl.load(SEG_START + i_seg).to(tl.int64) * G\n"
           "    t_nx = tl.load(QLIST + (start + o_r) // G, mask=start + o_r < end, other=0)\n"
           "    for f0 in range(start, end, BR):\n        f = f0 + o_r\n        m_r = f < end\n"
           "        t = t_nx.to(tl.int64)\n        t_nx = tl.load(QLIST + (f + BR) // G, mask=f + BR < end, other=0)\n")
    return s.replace(old, new)
variants = dict(base=base)
importlib.invalidate_caches()   # the patched modules below are new files
p = pathlib.Path(base.__file__).with_name('_sel_pf_idx.py'); p.write_text(patch_idx(src)); atexit.register(p.unlink)
variants['idx_ahead'] = importlib.import_module('nsa_nb.kernels._sel_pf_idx')


def patch_rows(s):
    "dk/dv: each chunk's rows (q, dO, lse, delta) loaded during the chunk before, their query list two chunks ahead"
    old = DKDV_LOOP + (
           "        row = (i_b * T + t) * HQ + i_h * G + f % G\n"
           "        # [M, BK], [M, BV], [M] log2 units, [M]\n"
           "        b_q, b_do, b_lse, b_delta = _bwd_rows(Q, DO, LSE, DELTA, row, m_r, K, V, BK, BV)\n")
    assert old in s
    new = ("    start = tl.load(SEG_START + i_seg).to(tl.int64) * G\n"
           "    f = start + o_r\n"
           "    t_c = tl.load(QLIST + f // G, mask=f < end, other=0).to(tl.int64)\n"
           "    n_q, n_do, n_lse, n_delta = _bwd_rows(Q, DO, LSE, DELTA, (i_b * T + t_c) * HQ + i_h * G + f % G, f < end, K, V, BK, BV)\n"
           "    t_n = tl.load(QLIST + (f + BR) // G, mask=f + BR < end, other=0).to(tl.int64)\n"
           "    for f0 in range(start, end, BR):\n"
           "        f = f0 + o_r\n        m_r = f < end\n"
           "        t = t_c\n"
           "        row = (i_b * T + t) * HQ + i_h * G + f % G\n"
           "        b_q, b_do, b_lse, b_delta = n_q, n_do, n_lse, n_delta\n"
           "        n_q, n_do, n_lse, n_delta = _bwd_rows(Q, DO, LSE, DELTA, (i_b * T + t_n) * HQ + i_h * G + (f + BR) % G, f + BR < end, K, V, BK, BV)\n"
           "        t_c = t_n\n"
           "        t_n = tl.load(QLIST + (f + 2 * BR) // G, mask=f + 2 * BR < end, other=0).to(tl.int64)\n")
    return s.replace(old, new)
p = pathlib.Path(base.__file__).with_name('_sel_pf_rows.py'); p.write_text(patch_rows(src)); atexit.register(p.unlink)
variants['rows_ahead'] = importlib.import_module('nsa_nb.kernels._sel_pf_rows')

cfg = NSAConfig()
for shape, (B, T, HQ, H, K) in dict(m125_64k=(1, 65536, 12, 2, 64),
                                    paper_64k=(1, 65536, 64, 4, 128)).items():
    torch.manual_seed(0)
    q, k, v = [torch.randn(B, T, h, K, device='cuda', dtype=torch.bfloat16) for h in (HQ, H, H)]
    N = (T - cfg.l) // cfg.d + 1
    kc = torch.randn(B, N, H, K, device='cuda', dtype=torch.bfloat16)
    idx = kn.select_blocks_triton(q, kc, torch.zeros(B, T, HQ, device='cuda'), cfg)
    sc = 1 / math.sqrt(K)
    ref = None
    for name, m in variants.items():
        o, lse = m.sel_fwd(q, k, v, idx, cfg.l_sel, sc)
        do = torch.randn_like(o) if ref is None else ref[1]
        g = m.sel_bwd(q, k, v, idx, o, lse, do, cfg.l_sel, sc)
        if ref is None: ref = (o, do, g)
        diff = max((a.float() - b.float()).abs().max().item() for a, b in zip((o, *g), (ref[0], *ref[2])))
        f_ms = triton.testing.do_bench(lambda: m.sel_fwd(q, k, v, idx, cfg.l_sel, sc), rep=150)
        b_ms = triton.testing.do_bench(lambda: m.sel_bwd(q, k, v, idx, o, lse, do, cfg.l_sel, sc), rep=150)
        print(f"{shape:10s} {name:10s} sel_fwd {f_ms:7.3f} ms  sel_bwd {b_ms:7.3f} ms  max|diff| {diff:.3g}", flush=True)
        assert diff == 0, f"{name} changed the outputs"
