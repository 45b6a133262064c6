"""Shared by the tuning sweeps beside it: the selections the kernels are timed on (random q, k, as `nsa_nb_bench kernels`
feeds them, or queries correlated along the sequence) and a recorder that rewrites the output JSON after every measured row, so an interrupted sweep keeps its rows."""

def selection_of(q, k, cfg):
    "The blocks `[B, T, H, n_sel]` (int32) that q selects against keys k (compressed by a fresh avg phi), as the NSA forward picks them."
    import torch
    from nsa_nb.compression import Compressor
    from nsa_nb.kernels.banded import compressed_attention_triton
    import nsa_nb.kernels.nsa as kn
    kc = Compressor(cfg.l, cfg.d, k.shape[-1]).to(k.device, k.dtype)(k)
    with torch.no_grad():
        _, lse = compressed_attention_triton(q, kc, kc, cfg.l, cfg.d)
        return kn.select_blocks_triton(q, kc, lse, cfg).contiguous()

def random_selection(B, T, HQ, H, K, cfg):
    "The blocks `[B, T, H, n_sel]` that random bf16 q, k select (compressed keys, compressed lse, scores, top-n) on the GPU."
    import torch
    q, k = torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16), torch.randn(B, T, H, K, device='cuda', dtype=torch.bfloat16)
    return selection_of(q, k, cfg)

def ar1(B, T, h, K, rho, device='cuda', chunk=256):
    "Unit-variance fp32 queries correlated along the sequence: q_t = rho q_{t-1} + sqrt(1 - rho^2) eps_t (q_0 = eps_0)."
    import math, torch
    if rho == 0: return torch.randn(B, T, h, K, device=device)
    eps = torch.randn(B, T, h, K, device=device)
    eps[:, 1:] *= math.sqrt(1 - rho ** 2)
    i = torch.arange(chunk, device=device)
    w = torch.where(i[:, None] >= i[None, :], rho ** (i[:, None] - i[None, :]).clamp_min(0).float(), 0.)   # [c, c] within a chunk
    q, carry = torch.empty_like(eps), None
    for s in range(0, T, chunk):                           # a chunk at a time: rho^t underflows over a whole sequence
        e = eps[:, s:s + chunk]; n = e.shape[1]
        x = torch.einsum('ts,bshk->bthk', w[:n, :n], e)
        if carry is not None: x = x + rho ** (i[:n, None, None] + 1) * carry[:, None]
        q[:, s:s + n], carry = x, x[:, -1]
    return q

def recorder(path:str):
    "`record(row)`: prints the row as JSON and rewrites `path` with every row so far, after the device, torch and Triton versions."
    import json, torch, triton
    out = dict(device=torch.cuda.get_device_name(), torch=torch.__version__, triton=triton.__version__, rows=[])
    def record(r):
        print(json.dumps(r), flush=True); out['rows'].append(r); json.dump(out, open(path, 'w'), indent=1)
    return record

def kernel_times(step, n:int=3) -> dict:
    """{kernel name: (ms per call of `step`, launches per call)} from torch.profiler over `n` calls of `step()` after `n`
    warm-up calls, on the GPU."""
    import torch
    from torch.profiler import profile, ProfilerActivity
    for _ in range(n): step()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(n): step()
        torch.cuda.synchronize()
    rows = {}
    for e in p.key_averages():
        t = getattr(e, 'self_device_time_total', None) or getattr(e, 'self_cuda_time_total', 0)
        if t > 0: rows[e.key] = (t / n / 1000, e.count // n)
    return rows

def timeit(f, n:int=5) -> float:
    "Median GPU ms of `f()` over `n` calls after 2 warm-up calls (CUDA events around each call)."
    import statistics, torch
    for _ in range(2): f()
    ts = []
    for _ in range(n):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); f(); b.record(); torch.cuda.synchronize(); ts.append(a.elapsed_time(b))
    return statistics.median(ts)

def load_module(path:str):
    "Another version of `nsa_nb.kernels.nsa` from its source file, its relative imports made absolute (Triton reads the source: a real file)."
    import importlib.util, re, sys, tempfile
    src = re.sub(r'from \.\.(\w+)', r'from nsa_nb.\1', open(path).read())
    src = re.sub(r'from \.(\w+)', r'from nsa_nb.kernels.\1', src)
    f = tempfile.NamedTemporaryFile('w', suffix='_base_nsa.py', delete=False)
    f.write(src); f.close()
    spec = importlib.util.spec_from_file_location('base_nsa', f.name)
    mod = sys.modules['base_nsa'] = importlib.util.module_from_spec(spec)   # (dataclasses look their module up)
    spec.loader.exec_module(mod)
    return mod

# the selected branch's three ways of dq (notebook 06b): its own launches, the keys in one pass, the keys over chunks
DQ_WAYS = dict(launches=dict(dq_keys_bytes=0), keys=dict(dq_keys_bytes=2 ** 40), chunked=dict(dq_keys_chunked=True))

def sel_tuning(**tune):
    """A context in which `SelTuning()` (every call site's default, read by the module's name) has the fields `tune`;
    the package's own afterwards."""
    import contextlib, functools
    import nsa_nb.kernels.selection as sel
    @contextlib.contextmanager
    def ctx():
        own = sel.SelTuning
        sel.SelTuning = functools.partial(own, **tune)
        try: yield
        finally: sel.SelTuning = own
    return ctx()
