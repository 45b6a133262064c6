"""SDPA's backends side by side on one GPU, bf16, B=1, causal, enable_gqa, inputs [B, heads, T, dim]: torch's default dispatch,
and the call restricted to the flash, cuDNN and memory-efficient backends; ms forward and forward+backward (one
`torch.autograd.grad`), at the paper's heads (HQ=64, H=4, K=V=128) and the 125M model's (12, 2, 64), T = 4k..64k.
At T=8192 it also lists the first kernels a profile of each one's forward+backward shows (which backend ran).
About 5 minutes on one H100. Usage: python3 scripts/tuning/bench_sdpa_backends.py > OUT.txt"""
import contextlib, json, torch, triton
import torch.nn.functional as F
from torch.nn.attention import sdpa_kernel, SDPBackend
from torch.profiler import profile, ProfilerActivity

f = lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
bench = lambda g: triton.testing.do_bench(g, warmup=25, rep=200, return_mode='median')
backends = dict(default=None, flash=SDPBackend.FLASH_ATTENTION, cudnn=SDPBackend.CUDNN_ATTENTION, efficient=SDPBackend.EFFICIENT_ATTENTION)
for shape, (HQ, H, K) in (('paper', (64, 4, 128)), ('model125m', (12, 2, 64))):
    for T in (4096, 8192, 16384, 32768, 65536):
        torch.manual_seed(0)
        q, k, v = [torch.randn(1, h, T, K, device='cuda', dtype=torch.bfloat16, requires_grad=True) for h in (HQ, H, H)]
        do = torch.randn(1, HQ, T, K, device='cuda', dtype=torch.bfloat16)
        r = dict(shape=shape, T=T)
        for name, b in backends.items():
            try:
                with sdpa_kernel([b]) if b is not None else contextlib.nullcontext():
                    with torch.no_grad(): fwd = bench(lambda: f(q, k, v))
                    fb = bench(lambda: torch.autograd.grad(f(q, k, v), (q, k, v), do))
                    if T == 8192:
                        with profile(activities=[ProfilerActivity.CUDA]) as p: torch.autograd.grad(f(q, k, v), (q, k, v), do); torch.cuda.synchronize()
                        r[name + '_kernels'] = sorted({e.key[:60] for e in p.key_averages() if getattr(e, 'self_device_time_total', 0) > 0})[:4]
                r[name] = (round(fwd, 3), round(fb, 3))                            # (forward ms, forward+backward ms)
            except Exception as e: r[name] = str(e)[:100]
        print(json.dumps(r), flush=True)
