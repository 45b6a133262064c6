"""The selected branch's four tile launches one at a time: warps and pipeline stages of the forward's tile launch, its
one-token launch, and the same two of dq, each varied with the other three at the baseline (2 stages, `_tile_meta`'s warps), at the
125M model's training shapes (B=16 x 2k, B=4 x 8k; HQ=12, H=2, K=64) and at B=1 x 64k, bf16, on the blocks that random
q, k select: `sel_fwd` alone for the forward's launches, `sel_bwd` alone for dq's, through dq's own launches
(`dq_keys_bytes=0`; dk/dv does not change). Outputs are
checked against the baseline's. About 3 minutes on one H100.
Usage: python3 scripts/tuning/sweep_sel_per_launch.py OUT.json"""
import sys, math, itertools, dataclasses, torch, triton
import nsa_nb.kernels.selection as sel
from nsa_nb.config import NSAConfig
from _common import random_selection, recorder

if len(sys.argv) != 2: sys.exit(__doc__)
record, cfg = recorder(sys.argv[1]), NSAConfig()
bench = lambda f: triton.testing.do_bench(f, warmup=10, rep=100, return_mode='median')
default_meta, override = sel._tile_meta, {}
def tile_meta(G, K, V, l_sel, n_sel, one, tune, fwd=False):   # the baseline, but the overridden launch's (warps, stages)
    # baseline: every launch at 2 stages (dq's tile launch included, whatever its default now) and the rule's warps
    m = default_meta(G, K, V, l_sel, n_sel, one, dataclasses.replace(tune, num_stages=2), fwd)
    nw_ns = override.get(('fwd' if fwd else 'dq', 'one' if one else 'tile'))
    return m | dict(num_warps=nw_ns[0], num_stages=nw_ns[1]) if nw_ns else m
sel._tile_meta = tile_meta
own = sel.SelTuning(dq_keys_bytes=0)   # dq from its own launches, not from the dk/dv kernel
launches = [(p, u) for p in ('fwd', 'dq') for u in ('tile', 'one')]
settings = [None] + list(itertools.product((2, 4, 8), (1, 2, 3, 4)))
for B, T in ((16, 2048), (4, 8192), (1, 65536)):
    HQ, H, K = 12, 2, 64
    torch.manual_seed(0)
    idx = random_selection(B, T, HQ, H, K, cfg).to(torch.int32).contiguous()
    q, k, v = [torch.randn(B, T, h, K, device='cuda', dtype=torch.bfloat16) for h in (HQ, H, H)]
    do = torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16)
    tiles, scale = sel.sel_tiles(idx, HQ // H), 1 / math.sqrt(K)
    override.clear()
    o, lse = sel.sel_fwd(q, k, v, idx, cfg.l_sel, scale, tiles)
    ref = (o, sel.sel_bwd(q, k, v, idx, o, lse, do, cfg.l_sel, scale, tiles=tiles, tune=own)[0])
    for (part, unit), s in itertools.product(launches, settings):
        override.clear()
        if s: override[(part, unit)] = s
        if part == 'fwd':
            f = lambda: sel.sel_fwd(q, k, v, idx, cfg.l_sel, scale, tiles)
            got, want = f()[0], ref[0]
        else:
            f = lambda: sel.sel_bwd(q, k, v, idx, o, lse, do, cfg.l_sel, scale, tiles=tiles, tune=own)
            got, want = f()[0], ref[1]
        record(dict(B=B, T=T, launch=f"{part}-{unit}", num_warps=s and s[0], num_stages=s and s[1], ms=round(bench(f), 4),
                    max_abs_diff=(got.float() - want.float()).abs().max().item()))
