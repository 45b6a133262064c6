"""A/B of how the loss head accumulates its weight gradient over chunks of rows (notebook 07's `lm_head_loss_op`):
`dw += (z.T @ h).float()` (a bf16 product, an fp32 copy of it, an add) against cuBLAS accumulating into the fp32 sum
itself (`torch.addmm(dw, z.T, h, out_dtype=torch.float32)`, CUDA only). First the loss head's body as the op runs it,
N rows of the 125M model (dim 768, vocabulary 50,304), bf16; ms per call (CUDA events, median of 5 after 2) and the
largest difference of dw between the two (rows 'head'). With STEPS=1, then compiled 125M training steps
(configs/m7c_125m.yaml, batch 1), dense and NSA, with `add_product_` switched between the two in one process (the loss
head is an operator of its own; rows 'step'). The rows are those of results/kernels/head_dw.json (its 'head' rows
timed after one warm-up call, not two).
ATTNS=nsa: the steps of NSA only.
Usage: [STEPS=1] [ATTNS=dense,nsa] python3 scripts/tuning/ab_head_dw.py OUT.json [65536,131072]"""
import os, sys, torch
import nsa_nb.model as nm
from nsa_nb.model import cross_entropy_rows
from nsa_nb.config import named_config
from nsa_nb.bench import synthetic_train_step, time_steps
from _common import recorder, timeit

if len(sys.argv) < 2: sys.exit(__doc__)
record = recorder(sys.argv[1])
lengths = [int(s) for s in (sys.argv[2:3] or ['65536,131072'])[0].split(',')]

def head(h, w, y, chunk, accumulate):
    wc, n = w.to(torch.bfloat16), (y != -100).sum().clamp_min(1)
    loss, dh = torch.zeros((), device=h.device), torch.empty_like(h)
    dw = torch.zeros(w.shape, device=w.device, dtype=torch.float32)
    for i in range(0, h.shape[0], chunk):
        hc, yc = h[i:i + chunk], y[i:i + chunk]
        z = hc @ wc.t()
        loss = loss + cross_entropy_rows(z, yc, True).sum()
        dh[i:i + chunk] = ((z @ wc).float() / n).to(h.dtype)
        if accumulate == 'copy': dw += (z.t() @ hc).float()
        elif accumulate == 'addmm': dw = torch.addmm(dw, z.t(), hc, out_dtype=torch.float32)
        else: torch.addmm(dw, z.t(), hc, out_dtype=torch.float32, out=dw)
    return loss / n, dh, dw / n

for N in lengths:
    h = torch.randn(N, 768, device='cuda', dtype=torch.bfloat16)
    w = torch.randn(50304, 768, device='cuda') * 0.02
    y = torch.randint(0, 50304, (N,), device='cuda')
    chunk = max(256, 2**27 // 50304 // 256 * 256)
    ref = head(h, w, y, chunk, 'copy')[2]
    for acc in ('copy', 'addmm', 'addmm_out', 'copy', 'addmm', 'addmm_out'):
        try:
            dw = head(h, w, y, chunk, acc)[2]
            record(dict(what='head', rows=N, accumulate=acc, ms=round(timeit(lambda: head(h, w, y, chunk, acc)), 2),
                        max_abs_diff=float(f'{(dw - ref).abs().max():.3g}'), max_abs_dw=float(f'{ref.abs().max():.3g}')))
        except Exception as e: record(dict(what='head', rows=N, accumulate=acc, error=str(e)[:200]))

if os.environ.get('STEPS') == '1':
    assert nm._ADDMM_OUT_DTYPE, "this torch has no addmm(..., out_dtype=): both arms would be the same"
    for T in lengths:
        for attn in os.environ.get('ATTNS', 'dense,nsa').split(','):
            step, model, _ = synthetic_train_step(named_config('m7c_125m', [f'model.attn={attn}', 'train.compile=true']),
                                                  T, 1, torch.device('cuda'))
            for _ in range(2): step()                                    # compile, warm up
            for r in range(2):
                for acc in (('copy', 'addmm_out') if r % 2 == 0 else ('addmm_out', 'copy')):
                    nm._ADDMM_OUT_DTYPE = acc == 'addmm_out'
                    ms_ = time_steps(step, 3, 1, graph=False)              # one untimed step on the switched path
                    record(dict(what='step', seq_len=T, attn=attn, accumulate=acc, round=r, step_ms=round(ms_, 2),
                                tokens_per_s=round(T / ms_ * 1e3)))
            nm._ADDMM_OUT_DTYPE = True
            del step, model; torch._dynamo.reset(); torch.cuda.empty_cache()
