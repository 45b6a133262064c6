"""dq of the selected branch two ways: its own launches (the forward's tiles and tokens, `dq_keys_bytes=0`), or from the dk/dv
kernel, which already has each (query, head) row's dS against the block and stores dS K into the row's slot for it, summed per
row in slot order by a small kernel (`dq_keys_bytes` large). Times `sel_bwd` (dq, the inversion, dk/dv and the sums) and the
whole NSA operator's forward+backward (`nsa_attention_triton`, gates and compressors outside) both ways, beside cuDNN's
forward+backward (torch's default SDPA) at the same shape, bf16, on the blocks that random q, k select; checks that dk, dv are
equal and reports dq's largest difference. Also the keys over query chunks whose shares fit 2 GiB (`dq_keys_chunked`,
`*_chunked`; the keys' one pass where that fits) and its largest difference from the one pass. The 125M model's training
batches (B=16 x 2k, B=4 x 8k) and B=1 at 16k-64k; the paper's heads at 8k and 16k. About 2 minutes on one H100. With
`B,T` arguments: the 125M model's heads at those shapes only.
Usage: python3 scripts/tuning/sweep_sel_dq_keys.py OUT.json [B,T ...]"""
import sys, math, torch, triton
import torch.nn.functional as F
import nsa_nb.kernels.selection as sel
from nsa_nb.config import NSAConfig
from nsa_nb.kernels.nsa import nsa_attention_triton
from _common import random_selection, recorder, sel_tuning, DQ_WAYS

if len(sys.argv) < 2: sys.exit(__doc__)
record, cfg = recorder(sys.argv[1]), NSAConfig()
bench = lambda f: triton.testing.do_bench(f, warmup=10, rep=100, return_mode='median')
shapes = [('model125m', 12, 2, 64, 64, B, T) for B, T in ((16, 2048), (4, 8192), (1, 16384), (1, 65536))]
shapes += [('paper', 64, 4, 128, 128, 1, T) for T in (8192, 16384)]
if len(sys.argv) > 2: shapes = [('model125m', 12, 2, 64, 64, *map(int, a.split(','))) for a in sys.argv[2:]]
for name, HQ, H, K, V, B, T in shapes:
    torch.manual_seed(0)
    idx = random_selection(B, T, HQ, H, K, cfg).to(torch.int32).contiguous()
    q = torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16)
    k, v = torch.randn(B, T, H, K, device='cuda', dtype=torch.bfloat16), torch.randn(B, T, H, V, device='cuda', dtype=torch.bfloat16)
    do, scale = torch.randn(B, T, HQ, V, device='cuda', dtype=torch.bfloat16), 1 / math.sqrt(K)
    o, lse = sel.sel_fwd(q, k, v, idx, cfg.l_sel, scale)
    # the whole operator: leaf q, k, v per branch, gates; compressors: mean over a block (cheap, the same both ways)
    lq = q.clone().requires_grad_()
    lk = [k.clone().requires_grad_() for _ in range(3)]; lv = [v.clone().requires_grad_() for _ in range(3)]
    g = torch.rand(B, T, HQ, 3, device='cuda', dtype=torch.bfloat16).requires_grad_()
    comp = lambda x: x.unflatten(1, (T // cfg.d, cfg.d))[:, :(T - cfg.l) // cfg.d + 1].mean(2)
    def nsa_step():
        out = nsa_attention_triton(lq, lk, lv, comp, comp, g, cfg)[0]
        out.backward(do)
    qs, ks_, vs_ = (x.transpose(1, 2).detach().requires_grad_() for x in (q, k.repeat_interleave(HQ // H, 2), v.repeat_interleave(HQ // H, 2)))
    def sdpa_step(): F.scaled_dot_product_attention(qs, ks_, vs_, is_causal=True).backward(do.transpose(1, 2))
    r0 = dict(shape=name, HQ=HQ, H=H, K=K, V=V, B=B, T=T, sdpa_fwdbwd_ms=round(bench(sdpa_step), 4))
    grads = {}
    for way, tune in DQ_WAYS.items():
        with sel_tuning(**tune):
            grads[way] = sel.sel_bwd(q, k, v, idx, o, lse, do, cfg.l_sel, scale)
            r0[f'sel_bwd_ms_{way}'] = round(bench(lambda: sel.sel_bwd(q, k, v, idx, o, lse, do, cfg.l_sel, scale)), 4)
            r0[f'nsa_fwdbwd_ms_{way}'] = round(bench(nsa_step), 4)
            torch.cuda.synchronize(); torch.cuda.reset_peak_memory_stats(); base = torch.cuda.memory_allocated()
            sel.sel_bwd(q, k, v, idx, o, lse, do, cfg.l_sel, scale); torch.cuda.synchronize()
            r0[f'sel_bwd_extra_mib_{way}'] = round((torch.cuda.max_memory_allocated() - base) / 2 ** 20, 1)
    a, b = grads['launches'], grads['keys']
    r0.update(dk_dv_equal=bool(torch.equal(a[1], b[1]) and torch.equal(a[2], b[2])),
              dq_max_abs_diff=(a[0].float() - b[0].float()).abs().max().item(), dq_max_abs=a[0].float().abs().max().item(),
              dq_keys_partial_mib=round(sel._dq_shares_bytes(q, idx.shape[-1]) / 2 ** 20, 1),
              chunked_max_abs_diff=max((x.float() - y.float()).abs().max().item() for x, y in zip(grads['chunked'], b)))
    record(r0)
    del q, k, v, do, o, lse, idx, grads, a, b, lq, lk, lv, g, qs, ks_, vs_; torch.cuda.empty_cache()
