# One-query SDPA calls as dense decode makes them (the key length one longer each call), on one GPU, bf16, ~64k keys.
# 1. Wall time per call (host + device) of 40 cold calls: torch's default dispatch (cuDNN first on an H100) unmasked and masked at the exact
#    length, flash attention unmasked, and the default masked over a length rounded up to BUCKET (what dense_layer_decode does
#    when it needs a mask). cuDNN caches an execution plan per key length, so each case gets lengths no other case used in this process.
# 2. Device time per call, graph-replayed at a fixed length: the default (cuDNN) against flash attention.
# Under a minute on one H100. Usage: python3 scripts/tuning/bench_sdpa_decode.py OUT.json
import inspect, sys, json, time, torch
import torch.nn.functional as F
from torch.nn.attention import sdpa_kernel, SDPBackend
from nsa_nb.bench import time_steps
from nsa_nb.cache import dense_layer_decode
BUCKET = inspect.signature(dense_layer_decode).parameters['bucket'].default   # what dense decode rounds a masked length up to
dev, bf, n = 'cuda', torch.bfloat16, 40
out = dict(device=torch.cuda.get_device_name(), torch=torch.__version__, cudnn=torch.backends.cudnn.version(), calls=n, rows=[])
def row(**r): out['rows'].append(r); print(json.dumps(r), flush=True)
base = [65536]
def fresh(): base[0] += 4096; return base[0]                               # a length range no earlier case touched
def sdpa(q, k, v, m, flash=False):
    if not flash: return F.scaled_dot_product_attention(q, k, v, attn_mask=m, enable_gqa=True)
    with sdpa_kernel([SDPBackend.FLASH_ATTENTION]): return F.scaled_dot_product_attention(q, k, v, attn_mask=m, enable_gqa=True)
for B, HQ, H, K in [(1, 12, 2, 64), (8, 64, 4, 128)]:
    q = torch.randn(B, HQ, 1, K, device=dev, dtype=bf)
    k = torch.randn(B, H, 65536 + 4096 * 10, K, device=dev, dtype=bf); v = torch.randn_like(k)
    for case in ('default', 'default_masked', 'flash', 'bucketed_masked'):
        T0 = fresh()
        def call(i):
            S = T0 + i
            Sb = -(-S // BUCKET) * BUCKET if case == 'bucketed_masked' else S
            m = (torch.arange(Sb, device=dev) < S)[None, None, None].expand(B, 1, 1, Sb) if 'masked' in case else None
            return sdpa(q, k[:, :, :Sb], v[:, :, :Sb], m, flash=case == 'flash')
        torch.cuda.synchronize(); t = time.perf_counter()
        for i in range(n): call(i)
        torch.cuda.synchronize(); row(part='cold_calls', B=B, HQ=HQ, H=H, K=K, case=case, ms_per_call=(time.perf_counter() - t) / n * 1e3)
    S = 65537                                                                # 2. device time, one length
    for flash in (False, True):
        row(part='graph_replayed', B=B, HQ=HQ, H=H, K=K, case='flash' if flash else 'default',
            us=1e3 * time_steps(lambda: sdpa(q, k[:, :, :S], v[:, :, :S], None, flash), 200, 10, True))
json.dump(out, open(sys.argv[1], 'w'), indent=1)
