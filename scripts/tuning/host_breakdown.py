"""Where the host's time goes in an eager NSA forward+backward at a host-bound size: the whole op through torch.library and
autograd, against the operators' Python bodies called directly, and cProfile of the direct calls (which the custom-op
wrappers hide from cProfile); first, the host cost of one Triton launch (4 and 30 arguments) and of torch.empty/zeros.
Usage: python3 scripts/tuning/host_breakdown.py B,T,HQ,H,K [...]"""
import sys, time, cProfile, pstats, math, torch, triton, triton.language as tl
import nsa_nb.kernels.nsa as kn
from nsa_nb.bench import _inputs, nsa_full, _mean_compressors
from nsa_nb.config import NSAConfig

def host_ms(step, n=30):
    for _ in range(5): step()
    torch.cuda.synchronize(); t0 = time.perf_counter()
    for _ in range(n): step()
    h = (time.perf_counter() - t0) / n * 1e3; torch.cuda.synchronize(); w = (time.perf_counter() - t0) / n * 1e3
    return h, w

@triton.jit
def _k4(A, B, C, D, n, BLOCK: tl.constexpr):
    i = tl.program_id(0)

@triton.jit
def _k30(A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15, n0, n1, n2, n3, n4, n5, n6, n7, s0, s1,
         BLOCK: tl.constexpr, C1: tl.constexpr, C2: tl.constexpr, C3: tl.constexpr):
    i = tl.program_id(0)

def launch_costs(n=2000):
    "Host microseconds per call of an empty Triton kernel (4 and 30 arguments), torch.empty and torch.zeros."
    x = torch.empty(1024, device='cuda')
    for name, f in [('triton launch, 4 args', lambda: _k4[(1,)](x, x, x, x, 1000, BLOCK=64)),
                    ('triton launch, 30 args', lambda: _k30[(1,)](*[x] * 16, *[1000 + i * 16 for i in range(8)], 0.5, 0.25,
                                                                  BLOCK=64, C1=1, C2=2, C3=3)),
                    ('torch.empty', lambda: torch.empty(4096, device='cuda')), ('torch.zeros', lambda: torch.zeros(4096, device='cuda'))]:
        print(f"{name}: host {host_ms(f, n)[0] * 1e3:.1f} us", flush=True)

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

launch_costs()
for spec in sys.argv[1:]: run(*map(int, spec.split(',')))
