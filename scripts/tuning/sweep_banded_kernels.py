"""Each banded kernel's launch swept on its own (notebook 06a): the forward, the dk/dv and the dq kernel of the compressed
branch and of the window, launched directly as `banded_fwd` / `banded_bwd` launch them but with the tile (BM rows, BN keys),
num_warps and num_stages of the sweep; bf16, random q, k, v, one GPU: the paper's heads and the 125M model's at B=1,
T=64k, and the 125M model's at its training batch (B=16, T=2048). Every setting's outputs are compared with the default's
(`BandedTuning`'s). About 5 minutes per shape on one H100, most of it compiling. BRANCHES, KERNELS and CONFIGS narrow
it: e.g. BRANCHES=compressed KERNELS=dkdv CONFIGS='64,32,4,2 64,64,8,2' (BM,BN,num_warps,num_stages; the default first).
Usage: [BRANCHES=..] [KERNELS=..] [CONFIGS=..] python3 scripts/tuning/sweep_banded_kernels.py OUT.json [paper|model125m|train2k|paper_k256 ...]"""
import os, sys, json, math, itertools
import torch, triton
import nsa_nb.kernels.banded as kb
from nsa_nb.config import NSAConfig
from _common import recorder

if len(sys.argv) < 2: sys.exit(__doc__)
record, cfg = recorder(sys.argv[1]), NSAConfig()
shapes = dict(paper=(1, 65536, 64, 4, 128), model125m=(1, 65536, 12, 2, 64), train2k=(16, 2048, 12, 2, 64),
              paper_k256=(1, 32768, 64, 4, 256))   # (B, T, HQ, H, K)
bench = lambda f: triton.testing.do_bench(f, warmup=5, rep=100, return_mode='median')
for shape in sys.argv[2:] or ['paper']:
    B, T, HQ, H, K = shapes[shape]; G = HQ // H
    for branch in os.environ.get('BRANCHES', 'compressed,window').split(','):
        torch.manual_seed(0)
        S = T if branch == 'window' else (T - cfg.l) // cfg.d + 1
        q, do = [torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16) for _ in range(2)]
        k, v = [torch.randn(B, S, H, K, device='cuda', dtype=torch.bfloat16) for _ in range(2)]
        k_pos, w = ((1, 0), cfg.w) if branch == 'window' else ((cfg.d, cfg.l - 1), None)
        scale = 1 / math.sqrt(K)
        o, lse = kb.banded_fwd(q, k, v, k_pos, w, scale)
        delta = kb.row_dot(o, do)
        pos_args, window = kb._params(k_pos, w)
        base = dict(HQ=HQ, H=H, G=G, K=K, V=K, BK=K, BK2=0, BV=K, WINDOW=window, PREC='tf32')
        def fwd(BM, BN, nw, ns):
            o_ = torch.empty_like(o); l_ = torch.empty_like(lse)
            f = lambda: kb._banded_fwd_kernel[(triton.cdiv(T, BM // G), B * H)](q, k, v, o_, l_, T, S, scale, *pos_args, **base, BM=BM, BN=BN, num_warps=nw, num_stages=ns)
            f(); return bench(f), (o_.float() - o.float()).abs().max().item()
        def dkdv(BM, BN, nw, ns):
            split = T if w is not None else kb._dkdv_split(T, triton.cdiv(S, BN) * B * H, BM // G, q.device)
            n_sp = triton.cdiv(T, split); part = n_sp > 1
            dk, dv = torch.empty_like(k), torch.empty_like(v)
            pk = torch.empty(n_sp, *k.shape, device=k.device, dtype=torch.float32) if part else dk
            pv = torch.empty(n_sp, *v.shape, device=v.device, dtype=torch.float32) if part else dv
            def f():
                kb._banded_bwd_dkdv_kernel[(triton.cdiv(S, BN), n_sp, B * H)](q, k, v, do, lse, delta, pk, pv, T, S, scale, *pos_args, split, **base, BM=BM, BN=BN, PARTIAL=part, num_warps=nw, num_stages=ns)
                if part: dk.copy_(pk.sum(0)); dv.copy_(pv.sum(0))
            f(); return bench(f), (dk, dv)
        def dq(BM, BN, nw, ns):
            dq_ = torch.empty_like(q)
            f = lambda: kb._banded_bwd_dq_kernel[(triton.cdiv(T, BM // G), B * H)](q, k, v, do, lse, delta, dq_, T, S, scale, *pos_args, **base, BM=BM, BN=BN, ACC=False, num_warps=nw, num_stages=ns)
            f(); return bench(f), (dq_,)
        ref = {}
        kernels = os.environ.get('KERNELS', 'fwd,dkdv,dq').split(',')
        for kernel, fn in [(n, f) for n, f in (('fwd', fwd), ('dkdv', dkdv), ('dq', dq)) if n in kernels]:
            d0 = kb._tiles(G, K, K, w is not None) if kernel == 'fwd' else kb._bwd_tiles(G, K, K)   # (BM, BN, BK, BV, num_warps, num_stages)
            default = (d0[0], d0[1], d0[4], d0[5])
            grid = [tuple(map(int, c.split(','))) for c in os.environ['CONFIGS'].split()] if 'CONFIGS' in os.environ else \
                list(itertools.product((64, 128), (64, 128), (4, 8), (2, 3)))
            for BM, BN, nw, ns in [default] + [c for c in grid if c != default]:
                r = dict(shape=shape, branch=branch, kernel=kernel, BM=BM, BN=BN, num_warps=nw, num_stages=ns, default=(BM, BN, nw, ns) == default)
                try:
                    r['ms'], got = fn(BM, BN, nw, ns)
                    if kernel == 'fwd': r['max_abs_diff'] = got
                    else:
                        ref.setdefault(kernel, got)
                        r['max_abs_diff'] = max((a.float() - b.float()).abs().max().item() for a, b in zip(got, ref[kernel]))
                except Exception as e: r['error'] = f"{type(e).__name__}: {str(e)[:100]}"
                record(r)
                torch.cuda.empty_cache()
