"""A/B of NSA's output projection in one process: autograd keeping o for o_proj's weight gradient (the layer as it is)
against a projection whose backward rebuilds o from the gates and branch outputs that the branches' backward keeps
anyway (one [B, T, HQ*V] tensor less per layer); compiled 125M training steps (train_throughput), alternating.
Usage: python3 scripts/tuning/ab_out_proj.py [2048,8192] [rounds]"""
import sys, torch
import torch.nn.functional as F
from nsa_nb.attention import NSAttention, gate_combine
from nsa_nb.config import named_config
from nsa_nb.bench import train_throughput

class RebuiltOutProj(torch.autograd.Function):
    "`o [B, T, HQ, V]` -> `o.flatten(-2) @ w.T`, keeping the gates and branches instead of o."
    @staticmethod
    def forward(ctx, o, w, g, o_c, o_s, o_w):
        ctx.save_for_backward(w, g, o_c, o_s, o_w); ctx.o_shape = o.shape
        return F.linear(o.flatten(-2), w)
    @staticmethod
    def backward(ctx, dy):
        w, g, *branches = ctx.saved_tensors
        o = gate_combine(g, branches).flatten(-2)                                  # [B, T, HQ*V], rebuilt
        return (dy @ w).view(ctx.o_shape), dy.flatten(0, -2).mT @ o.flatten(0, -2), None, None, None, None

def rebuilt_parts(self, x, return_branches=False, keep=False, cu_seqlens=None):   # _forward_parts with RebuiltOutProj
    assert cu_seqlens is None, "one document per row here"
    self._check_input(x)
    q, ks, vs = self._heads(x)
    g = self.gate(x)
    o, branches, idx = self._attend(q, ks, vs, g, return_branches)
    w = self.o_proj.weight.to(o.dtype)
    y = RebuiltOutProj.apply(o, w, *(t.detach().to(o.dtype) for t in (g, *branches)))
    stats = dict(gates=g.detach(), idx=idx.detach())
    if keep and self.track_stats: self._last = stats
    return y, branches if return_branches else None, stats, (ks, vs)

lengths = [int(s) for s in (sys.argv[1:2] or ['2048,8192'])[0].split(',')]
rounds = int((sys.argv[2:3] or ['2'])[0])
variants = {'rebuilt o': rebuilt_parts, 'kept o': NSAttention._forward_parts}
for T in lengths:
    for r in range(rounds):
        for name, fn in (variants.items() if r % 2 == 0 else reversed(variants.items())):
            NSAttention._forward_parts = fn
            c = named_config('m7c_125m', ['model.attn=nsa', 'train.compile=true'])
            res = train_throughput(c, T, 32768 // T, steps=10, device='cuda')
            print(f"T={T} round {r} {name:10s} {res['tokens_per_s']:10,.0f} tok/s  {res['step_ms']:7.2f} ms  "
                  f"peak {res['peak_mem_gib']:.2f} GiB  graphs {res['graphs']}", flush=True)
            torch._dynamo.reset()
