"""Shared by the tuning sweeps beside it: the selections the kernels are timed on (random q, k, as `nsa_nb_bench kernels`
feeds them) and a recorder that rewrites the output JSON after every measured row, so an interrupted sweep keeps its rows."""

def random_selection(B, T, HQ, H, K, cfg):
    "The blocks `[B, T, H, n_sel]` that random bf16 q, k select (compressed keys, compressed lse, scores, top-n) on the GPU."
    import torch
    from nsa_nb.compression import Compressor
    from nsa_nb.kernels.banded import compressed_attention_triton
    import nsa_nb.kernels.nsa as kn
    q, k = torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16), torch.randn(B, T, H, K, device='cuda', dtype=torch.bfloat16)
    kc = Compressor(cfg.l, cfg.d, K).to('cuda', torch.bfloat16)(k)
    _, lse = compressed_attention_triton(q, kc, kc, cfg.l, cfg.d)
    return kn.select_blocks_triton(q, kc, lse, cfg)

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
