"""The selected branch's forward two ways, in one process: its tile and one-token launches (the default), or from the keys
(`SelTuning(fwd_keys=True)`: `invert_selection`, one program per segment of a block's queries, then the merge of each
row's shares). Times `sel_fwd` alone and the whole NSA operator's forward+backward (`nsa_attention_triton`, compressors a
block mean) both ways, bf16, on the blocks that q selects: random q (rho=0, the benchmarks' worst case) and queries
correlated along the sequence (rho=0.99, `ar1`: neighbouring queries choose alike, as a trained model's do); reports the
largest differences of o and lse and the shares' buffer. About 3 minutes on one H100.
Usage: python3 scripts/tuning/ab_sel_fwd_keys.py OUT.json [B,T,HQ,H,K ...]   (default: the 125M model's heads at 4 x 8k
and 64k, the paper's at 16k and 64k)"""
import sys, math, torch, triton
import nsa_nb.kernels.selection as sel
from nsa_nb.config import NSAConfig
from nsa_nb.kernels.nsa import nsa_attention_triton
from _common import selection_of, ar1, recorder, sel_tuning

if len(sys.argv) < 2: sys.exit(__doc__)
record, cfg = recorder(sys.argv[1]), NSAConfig()
bench = lambda f: triton.testing.do_bench(f, warmup=10, rep=100, return_mode='median')
shapes = [tuple(map(int, s.split(','))) for s in sys.argv[2:]] or \
         [(4, 8192, 12, 2, 64), (1, 65536, 12, 2, 64), (1, 16384, 64, 4, 128), (1, 65536, 64, 4, 128)]
for B, T, HQ, H, K in shapes:
    for rho in (0.0, 0.99):
        torch.manual_seed(0)
        q = ar1(B, T, HQ, K, rho).to(torch.bfloat16)
        k, v = (torch.randn(B, T, H, K, device='cuda', dtype=torch.bfloat16) for _ in range(2))
        idx, scale = selection_of(q, k, cfg), 1 / math.sqrt(K)
        lq = q.clone().requires_grad_()
        lk = [k.clone().requires_grad_() for _ in range(3)]; lv = [v.clone().requires_grad_() for _ in range(3)]
        g = torch.rand(B, T, HQ, 3, device='cuda', dtype=torch.bfloat16).requires_grad_()
        do = torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16)
        comp = lambda x: x.unflatten(1, (T // cfg.d, cfg.d))[:, :(T - cfg.l) // cfg.d + 1].mean(2)
        def nsa_step(): nsa_attention_triton(lq, lk, lv, comp, comp, g, cfg)[0].backward(do)
        r, outs = dict(B=B, T=T, HQ=HQ, H=H, K=K, rho=rho), {}
        for way, on in (('tiles', False), ('keys', True)):
            with sel_tuning(fwd_keys=on):
                outs[way] = sel.sel_fwd(q, k, v, idx, cfg.l_sel, scale)
                r[f'sel_fwd_ms_{way}'] = round(bench(lambda: sel.sel_fwd(q, k, v, idx, cfg.l_sel, scale)), 4)
                r[f'nsa_fwdbwd_ms_{way}'] = round(bench(nsa_step), 4)
        (o_a, l_a), (o_b, l_b) = outs['tiles'], outs['keys']
        r.update(o_max_abs_diff=(o_a.float() - o_b.float()).abs().max().item(),
                 lse_max_abs_diff=(l_a - l_b).abs().max().item(),
                 shares_mib=round(q.numel() * idx.shape[-1] * 2 / 2 ** 20, 1))
        record(r)
        del q, k, v, idx, lq, lk, lv, g, do, outs, o_a, o_b, l_a, l_b; torch.cuda.empty_cache()
