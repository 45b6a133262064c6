"""How busy the GPU is in a compiled training step of the 125M model (`nsa_nb_bench train`'s step, `synthetic_train_step`,
32k tokens per step): the host's time to enqueue a step, the step's wall time, and the GPU time of its kernels (torch.profiler's
self CUDA total over 3 steps) with the top operators by host time. Kernel time well under the wall time: the GPU waits on the
host. About 4 minutes on one H100.
Usage: python3 scripts/tuning/train_step_gpu_busy.py [ATTN,T ...]   (default nsa,32768 nsa,8192 nsa,2048 dense,32768)"""
import sys, time, json, torch
from torch.profiler import profile, ProfilerActivity
from nsa_nb.config import named_config
from nsa_nb.train import synthetic_train_step

shapes = [(a, int(t)) for a, t in (s.split(',') for s in sys.argv[1:])] or [('nsa', 32768), ('nsa', 8192), ('nsa', 2048), ('dense', 32768)]
for attn, T in shapes:
    cfg = named_config('m7c_125m', [f'model.attn={attn}', 'train.compile=true'])
    torch._dynamo.reset()
    step, model, prec = synthetic_train_step(cfg, T, 32768 // T, torch.device('cuda'))
    for _ in range(4): step()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(6): step()
    host = (time.perf_counter() - t0) / 6 * 1e3
    torch.cuda.synchronize(); wall = (time.perf_counter() - t0) / 6 * 1e3
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as p:
        for _ in range(3): step()
        torch.cuda.synchronize()
    ev = p.key_averages()
    gpu = sum(e.self_device_time_total for e in ev if e.device_type.name == 'CUDA') / 3 / 1e3
    launches = sum(e.count for e in ev if 'LaunchKernel' in e.key) / 3
    print(json.dumps(dict(attn=attn, T=T, B=32768 // T, host_enqueue_ms=round(host, 1), wall_ms=round(wall, 1),
                          gpu_kernel_ms=round(gpu, 1), launches=launches)), flush=True)
    print(ev.table(sort_by='self_cpu_time_total', row_limit=12, max_name_column_width=50), flush=True)
    del step, model; torch.cuda.empty_cache()
