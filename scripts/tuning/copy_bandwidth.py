# The card's memory-bandwidth ceiling, measured before tuning against it: a device-to-device copy (bytes read + written per second) and a read-only sum, at 64 MiB and 1 GiB,
# bf16, do_bench medians; seconds on one GPU. Usage: python3 scripts/tuning/copy_bandwidth.py
import torch
from triton.testing import do_bench
for n in (64 << 20, 1 << 30):
    a = torch.empty(n // 2, dtype=torch.bfloat16, device='cuda').normal_(); b = torch.empty_like(a)
    ms = do_bench(lambda: b.copy_(a), warmup=25, rep=200, return_mode='median')
    ms_r = do_bench(lambda: a.sum(), warmup=25, rep=200, return_mode='median')
    print(f"{n / 2**20:.0f} MiB: copy {2 * n / ms / 1e9:.2f} TB/s (read + write), sum (read) {n / ms_r / 1e9:.2f} TB/s")
