"""One NSA layer, Triton kernels (the interpreter on a CPU) against the reference path: outputs and every gradient under a loss on the
last 5 positions only (as passkey fine-tuning's answer-only loss), at the passkey runs' block sizes (l=32, d=16, l_sel=64, w=64), G=3.
Usage: TRITON_INTERPRET=1 python scripts/grad_parity_layer.py [T=400] [n_sel=4]   (about 3 minutes on 2 CPU cores at T=400)"""
import os, sys, time, torch
os.environ.setdefault('TRITON_INTERPRET', '1')
from nsa_nb.config import NSAConfig
from nsa_nb.attention import NSAttention

torch.manual_seed(0)
T = int(sys.argv[1]) if len(sys.argv) > 1 else 400
cfg = NSAConfig(l=32, d=16, l_sel=64, n_sel=int(sys.argv[2]) if len(sys.argv) > 2 else 4, w=64)
dim, HQ, H, dk = 96, 6, 2, 32
ref = NSAttention(dim, HQ, H, dk, dk, cfg=cfg, backend='reference')
tri = NSAttention(dim, HQ, H, dk, dk, cfg=cfg, backend='triton'); tri.load_state_dict(ref.state_dict())
x, w = torch.randn(2, T, dim), torch.randn(2, T, dim)
w[:, :-5] = 0                                                    # the loss sees the last 5 positions only
out = {}
for name, m in [('reference', ref), ('triton', tri)]:
    xx = x.clone().requires_grad_(True); t = time.time()
    y = m(xx); (y * w).sum().backward()
    out[name] = dict(y=y.detach(), x=xx.grad, **{n: p.grad.clone() for n, p in m.named_parameters()})
    print(f'{name}: {time.time() - t:.1f} s, fallbacks {dict(m.fallbacks)}')
print('selected blocks identical:', torch.equal(ref._last['idx'], tri._last['idx']))
worst = 0.0
for k, a in out['reference'].items():
    err = ((a - out['triton'][k]).norm() / a.norm().clamp_min(1e-12)).item(); worst = max(worst, err)
    print(f'{k:22s} relative error {err:.2e}')
assert worst < 1e-5, worst
print(f'worst relative error {worst:.2e} < 1e-5')
