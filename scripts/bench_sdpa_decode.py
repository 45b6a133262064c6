# One-query SDPA calls as dense decode makes them (the key length one longer each call), on one GPU: torch's default dispatch against
# nsa_nb.decode's choice (_decode_backends: flash unmasked; cuDNN masked over a length rounded up to DECODE_SDPA_BUCKET). cuDNN caches an
# execution plan per key length, so every variant and case gets lengths no other has used in this process (cold calls, as in generation).
# Wall time per call (host + device). Usage: python3 scripts/bench_sdpa_decode.py OUT.json
import sys, json, time, torch
import torch.nn.functional as F
from nsa_nb.decode import sdpa_decode, DECODE_SDPA_BUCKET
dev, bf, n = 'cuda', torch.bfloat16, 40
out = dict(device=torch.cuda.get_device_name(), torch=torch.__version__, cudnn=torch.backends.cudnn.version(), calls=n, rows=[])
base = [65536]
def fresh(): base[0] += 4096; return base[0]                               # a length range no earlier case touched
for B, HQ, H, K in [(1, 12, 2, 64), (8, 64, 4, 128)]:
    q = torch.randn(B, HQ, 1, K, device=dev, dtype=bf)
    k = torch.randn(B, H, 65536 + 4096 * 10, K, device=dev, dtype=bf); v = torch.randn_like(k)
    for variant in ('default', 'nsa_nb'):
        for masked in (False, True):
            T0 = fresh()
            def call(i):
                S = T0 + i
                if variant == 'default':
                    m = (torch.arange(S, device=dev) < S)[None, None, None].expand(B, 1, 1, S) if masked else None
                    return F.scaled_dot_product_attention(q, k[:, :, :S], v[:, :, :S], attn_mask=m, enable_gqa=True)
                Sb = -(-S // DECODE_SDPA_BUCKET) * DECODE_SDPA_BUCKET if masked else S   # as dense_layer_decode rounds a masked step
                m = (torch.arange(Sb, device=dev) < S)[None, None, None].expand(B, 1, 1, Sb) if masked else None
                return sdpa_decode(q, k[:, :, :Sb], v[:, :, :Sb], m)
            torch.cuda.synchronize(); t = time.perf_counter()
            for i in range(n): call(i)
            torch.cuda.synchronize(); ms = (time.perf_counter() - t) / n * 1e3
            r = dict(B=B, HQ=HQ, H=H, K=K, variant=variant, masked=masked, ms_per_call=ms); out['rows'].append(r); print(json.dumps(r), flush=True)
json.dump(out, open(sys.argv[1], 'w'), indent=1)
