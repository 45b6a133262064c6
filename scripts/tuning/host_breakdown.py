"""Where the host's time goes in an eager NSA forward+backward at a host-bound size: the whole op through torch.library and
autograd, against the operators' Python bodies called directly, and cProfile of the direct calls (which the custom-op
wrappers hide from cProfile). Usage: python3 scripts/tuning/host_breakdown.py B,T,HQ,H,K"""
import sys, time, cProfile, pstats, math, torch
import nsa_nb.kernels.nsa as kn
from nsa_nb.bench import _inputs, nsa_full, _mean_compressors
from nsa_nb.config import NSAConfig

def host_ms(step, n=30):
    for _ in range(5): step()
    torch.cuda.synchronize(); t0 = time.perf_counter()
    for _ in range(n): step()
    h = (time.perf_counter() - t0) / n * 1e3; torch.cuda.synchronize(); w = (time.perf_counter() - t0) / n * 1e3
    return h, w

def run(B, T, HQ, H, K):
    cfg = NSAConfig(); q, k, v, g = _inputs(B, T, HQ, H, K, K, torch.bfloat16, 'bthd'); ins = [q, k, v, g]
    do = torch.randn_like(q)
    whole = lambda: torch.autograd.grad(nsa_full(q, k, v, g, cfg), ins, do)
    phk, phv = _mean_compressors(cfg.l, cfg.d, K, K)
    blocks, scale = kn.nsa_blocks(cfg), 1 / math.sqrt(K)
    with torch.no_grad(): kc, vc = phk(k), phv(v)
    fwd, bwd = kn.nsa_fwd._init_fn, kn.nsa_bwd._init_fn
    qd, kd, vd, gd = (t.detach() for t in ins)
    def bodies():
        o, o_c, o_s, o_w, lc, ls, lw, idx = fwd(gd, qd, kc, vc, kd, vd, kd, vd, blocks, scale, False)
        bwd(do, None, None, None, gd, qd, kc, vc, kd, vd, kd, vd, o_c, o_s, o_w, lc, ls, lw, idx, blocks, scale)
    fonly = lambda: fwd(gd, qd, kc, vc, kd, vd, kd, vd, blocks, scale, False)
    with torch.no_grad(): fo = lambda: torch.ops.nsa_nb.nsa_fwd(gd, qd, kc, vc, kd, vd, kd, vd, blocks, scale, False)
    comp = lambda: (phk(k), phv(v))
    kcl, vcl = kc.clone().requires_grad_(), vc.clone().requires_grad_()
    ins2 = [gd.clone().requires_grad_(), qd.clone().requires_grad_(), kcl, vcl, kd.clone().requires_grad_(), vd.clone().requires_grad_()]
    def op_grad():
        g2, q2, kc2, vc2, k2, v2 = ins2
        o = torch.ops.nsa_nb.nsa_fwd(g2, q2, kc2, vc2, k2, v2, k2, v2, blocks, scale, False)[0]
        return torch.autograd.grad(o, ins2, do)
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, g2, q2, kc2, vc2, k2, v2):
            o, o_c, o_s, o_w, lc, ls, lw, idx = fwd(g2, q2, kc2, vc2, k2, v2, k2, v2, blocks, scale, False)
            ctx.save_for_backward(g2, q2, kc2, vc2, k2, v2, o_c, o_s, o_w, lc, ls, lw, idx); return o
        @staticmethod
        def backward(ctx, do_):
            g2, q2, kc2, vc2, k2, v2, o_c, o_s, o_w, lc, ls, lw, idx = ctx.saved_tensors
            dg, dq, dkc, dvc, dks, dvs, dkw, dvw = bwd(do_, None, None, None, g2, q2, kc2, vc2, k2, v2, k2, v2, o_c, o_s, o_w, lc, ls, lw, idx, blocks, scale)
            return dg, dq, dkc, dvc, dks + dkw, dvs + dvw
    fn_grad = lambda: torch.autograd.grad(F.apply(*ins2), ins2, do)
    bwd_op = lambda: torch.ops.nsa_nb.nsa_bwd(do, None, None, None, gd, qd, kc, vc, kd, vd, kd, vd, *saved, blocks, scale)
    with torch.no_grad(): saved = fwd(gd, qd, kc, vc, kd, vd, kd, vd, blocks, scale, False)[1:]
    bwd_body = lambda: bwd(do, None, None, None, gd, qd, kc, vc, kd, vd, kd, vd, *saved, blocks, scale)
    for name, f in [('whole (custom ops + autograd + compressors)', whole), ('bodies (fwd+bwd, direct)', bodies),
                    ('fwd body', fonly), ('fwd custom op (no grad)', fo), ('compressors fwd', comp), ('custom op fwd + autograd.grad, no compressors', op_grad), ('autograd.Function of the bodies + grad', fn_grad), ('bwd custom op', bwd_op), ('bwd body', bwd_body)]:
        h, w = host_ms(f); print(f"B={B} T={T}: {name}: host {h:.3f} ms, wall {w:.3f} ms", flush=True)
    pr = cProfile.Profile(); pr.enable()
    for _ in range(10): bodies()
    pr.disable(); torch.cuda.synchronize()
    st = pstats.Stats(pr); st.sort_stats('tottime').print_stats(30); st.sort_stats('cumtime').print_stats(45)

for spec in sys.argv[1:]: run(*map(int, spec.split(',')))
