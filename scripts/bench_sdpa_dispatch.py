# torch's default SDPA dispatch against an explicit backend list (nsa_nb.model.sdpa_backends, switched by nsa_nb.model.SDPA_EXPLICIT),
# in one process on one GPU: wall time per call (host + device) of one-query decode calls over a 64k cache (fixed length, and a
# length that grows each call), of causal training-shaped forward+backward calls, the dense 125M model's training tokens/s, and
# bench_decode's layer and model rows at 64k. Usage: python3 scripts/bench_sdpa_dispatch.py OUT.json
import sys, json, time, torch
import torch.nn.functional as F
import nsa_nb.model as M
from nsa_nb.decode import sdpa_decode, bench_decode
from nsa_nb.bench import bench_train
dev, bf = 'cuda', torch.bfloat16
def wall(fn, n=20, warm=3):
    for i in range(warm): fn(i)
    torch.cuda.synchronize(); t = time.perf_counter()
    for i in range(n): fn(warm + i)
    torch.cuda.synchronize(); return (time.perf_counter() - t) / n * 1e3
out = dict(device=torch.cuda.get_device_name(), torch=torch.__version__, cudnn=torch.backends.cudnn.version(), rows=[])
def row(**r): out['rows'].append(r); print(json.dumps(r), flush=True)
for B, HQ, H, K in [(1, 12, 2, 64), (8, 64, 4, 128)]:                   # decode: one query over ~64k keys
    q = torch.randn(B, HQ, 1, K, device=dev, dtype=bf); k = torch.randn(B, H, 65536 + 64, K, device=dev, dtype=bf); v = torch.randn_like(k)
    for explicit in (False, True):
        M.SDPA_EXPLICIT = explicit
        for grow in (False, True):
            for masked in (False, True):
                def f(i):
                    S = 65536 + (i if grow else 0)
                    m = (torch.arange(S, device=dev) < S - 1)[None, None, None].expand(B, 1, 1, S) if masked else None
                    return sdpa_decode(q, k[:, :, :S], v[:, :, :S], m)
                row(kind='decode_call', B=B, HQ=HQ, H=H, K=K, explicit=explicit, growing=grow, masked=masked, ms=wall(f))
for B, HQ, H, T, K in [(16, 12, 2, 2048, 64), (1, 64, 4, 16384, 128)]:   # training-shaped causal forward + backward
    q = torch.randn(B, HQ, T, K, device=dev, dtype=bf, requires_grad=True); k = torch.randn(B, H, T, K, device=dev, dtype=bf, requires_grad=True)
    v = torch.randn(B, H, T, K, device=dev, dtype=bf, requires_grad=True)
    for explicit in (False, True):
        M.SDPA_EXPLICIT = explicit
        row(kind='train_call', B=B, HQ=HQ, H=H, T=T, K=K, explicit=explicit, ms=wall(lambda i: M._sdpa_gqa(q, k, v).sum().backward()))
for explicit in (False, True):                                           # the dense model's training, and decode rows
    M.SDPA_EXPLICIT = explicit
    for r in bench_train([2048, 8192], attns=('dense',), log=lambda s: None): row(kind='train_tokens_per_s', explicit=explicit, **r)
    for r in bench_decode(contexts=(65536,), parts=('layer', 'model'), modes=('eager', 'graph'), log=lambda s: None):
        row(kind='bench_decode', explicit=explicit, **{k: r[k] for k in ('part', 'attn', 'B', 'T', 'mode', 'ms') if k in r})
json.dump(out, open(sys.argv[1], 'w'), indent=1)
