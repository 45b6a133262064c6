"""Per-stage GPU times of the Triton NSA path (forward and backward), and with --sweep launch-parameter sweeps of the selected
forward and the banded kernels; about a minute on one H100 (5 with --sweep).
Usage on a GPU node: python3 scripts/tuning/profile_nsa.py [T ...] [--sweep]  (one line per stage, median of 5 after warm-up)."""
import sys, math, json
import torch
import nsa_nb.kernels.banded as kb
import nsa_nb.kernels.selection as ks
import nsa_nb.kernels.nsa as kn
from nsa_nb.config import NSAConfig
from nsa_nb.compression import Compressor
from _common import timeit

def profile(T, HQ, H, K, V, cfg=NSAConfig(), tag=''):
    torch.manual_seed(0)
    q, k, v = [torch.randn(1, T, h, e, device='cuda', dtype=torch.bfloat16) for h, e in ((HQ, K), (H, K), (H, V))]
    sc = 1 / math.sqrt(K)
    phi = Compressor(cfg.l, cfg.d, K)
    r = {}
    r['phi'] = timeit(lambda: (phi(k), phi(v)))
    kc, vc = phi(k), phi(v)
    r['cmp_fwd'] = timeit(lambda: kb.banded_fwd(q, kc, vc, (cfg.d, cfg.l - 1), None, sc))
    o_c, lse_c = kb.banded_fwd(q, kc, vc, (cfg.d, cfg.l - 1), None, sc)
    r['scores+topk'] = timeit(lambda: kn.select_blocks_triton(q, kc, lse_c, cfg))
    idx = kn.select_blocks_triton(q, kc, lse_c, cfg)
    r['sel_fwd'] = timeit(lambda: ks.sel_fwd(q, k, v, idx, cfg.l_sel, sc))
    o_s, lse_s = ks.sel_fwd(q, k, v, idx, cfg.l_sel, sc)
    r['win_fwd'] = timeit(lambda: kb.banded_fwd(q, k, v, (1, 0), cfg.w, sc))
    o_w, lse_w = kb.banded_fwd(q, k, v, (1, 0), cfg.w, sc)
    g = torch.rand(1, T, HQ, 3, device='cuda', dtype=torch.bfloat16)
    from nsa_nb.attention import gate_combine
    r['combine'] = timeit(lambda: gate_combine(g, (o_c, o_s, o_w)))
    r['combine_triton'] = timeit(lambda: kn.gate_combine_triton(g, (o_c, o_s, o_w)))
    sc_buf = torch.randn(4 * H, T // 4, math.ceil(T / cfg.l_sel), device='cuda')
    r['topk(1/4 of rows)'] = timeit(lambda: sc_buf.topk(min(cfg.n_sel, sc_buf.shape[-1]), dim=-1))
    do = torch.randn_like(o_c)
    r['cmp_bwd'] = timeit(lambda: kb.banded_bwd(q, kc, vc, o_c, lse_c, do, (cfg.d, cfg.l - 1), None, sc))
    r['sel_bwd'] = timeit(lambda: ks.sel_bwd(q, k, v, idx, o_s, lse_s, do, cfg.l_sel, sc))
    r['sel_invert'] = timeit(lambda: ks.invert_selection(idx, math.ceil(T / cfg.l_sel), ks.SelTuning().seg))
    r['win_bwd'] = timeit(lambda: kb.banded_bwd(q, k, v, o_w, lse_w, do, (1, 0), cfg.w, sc))
    if '--sweep' not in sys.argv: return print(json.dumps(dict(tag=tag, T=T, ms={a: round(b, 3) for a, b in r.items()})), flush=True)
    for nw in (2, 4, 8):
        for ns in (1, 2, 3):
            tune = ks.SelTuning(num_warps=nw, num_stages=ns)
            try: r[f'sel_fwd w{nw}s{ns}'] = timeit(lambda: ks.sel_fwd(q, k, v, idx, cfg.l_sel, sc, tune=tune))
            except Exception as e: r[f'sel_fwd w{nw}s{ns}'] = str(e)[:60]
    for BM, BN, nw, ns in ((64, 64, 4, 2), (128, 64, 8, 3), (128, 128, 8, 2), (64, 128, 4, 3)):
        tune = kb.BandedTuning(fwd=(BM, BN, nw, ns))
        try:
            r[f'cmp_fwd {BM}x{BN} w{nw}s{ns}'] = timeit(lambda: kb.banded_fwd(q, kc, vc, (cfg.d, cfg.l - 1), None, sc, tune=tune))
            r[f'win_fwd {BM}x{BN} w{nw}s{ns}'] = timeit(lambda: kb.banded_fwd(q, k, v, (1, 0), cfg.w, sc, tune=tune))
        except Exception as e: r[f'banded {BM}x{BN}'] = str(e)[:80]
    print(json.dumps(dict(tag=tag, T=T, HQ=HQ, H=H, K=K, V=V, ms={a: (round(b, 3) if isinstance(b, float) else b) for a, b in r.items()})), flush=True)

if __name__ == '__main__':
    for T in [int(x) for x in sys.argv[1:] if x.isdigit()] or [65536]:
        profile(T, 64, 4, 128, 128, tag='paper')
        profile(T, 12, 2, 64, 64, tag='model125m')
