"""Where the host's time goes in one NSA attention forward+backward (what `nsa_nb_bench kernels` times as 'nsa fwdbwd'),
bf16, random inputs, one GPU. Per shape it prints: GPU time per step (CUDA events around 20 steps), the host's time to
enqueue them (the steps return before the GPU is done unless something waits on it), kernel launches per step
(torch.profiler's CPU activity), then cProfile's 25 Python functions with the most time of their own and 25 with the most
time below them. Under a minute per shape.
Usage: python3 scripts/tuning/profile_host.py B,T,HQ,H,K [...]   e.g. 1,8192,12,2,64 4,8192,12,2,64"""
import sys, time, cProfile, pstats, torch
from torch.profiler import profile, ProfilerActivity
from nsa_nb.bench import _inputs, nsa_full
from nsa_nb.config import NSAConfig

def run(B, T, HQ, H, K):
    cfg = NSAConfig()
    q, k, v, g = _inputs(B, T, HQ, H, K, K, torch.bfloat16, 'bthd')
    ins = [q, k, v, g]; do = torch.randn_like(q)
    step = lambda: torch.autograd.grad(nsa_full(q, k, v, g, cfg), ins, do)
    for _ in range(10): step()
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    t0 = time.perf_counter(); a.record()
    for _ in range(20): step()
    host = (time.perf_counter() - t0) / 20 * 1e3
    b.record(); torch.cuda.synchronize(); wall = (time.perf_counter() - t0) / 20 * 1e3
    print(f"== B={B} T={T} HQ={HQ} H={H} K={K}: {a.elapsed_time(b) / 20:.2f} ms GPU (events) per step, "
          f"host enqueues a step in {host:.2f} ms, wall {wall:.2f} ms", flush=True)
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as p:
        for _ in range(5): step()
        torch.cuda.synchronize()
    ev = p.key_averages()
    launches = sum(e.count for e in ev if 'LaunchKernel' in e.key) / 5
    kernels = sum(getattr(e, 'self_device_time_total', 0) for e in ev if e.device_type.name == 'CUDA') / 5 / 1e3
    print(f"  {launches:.0f} kernel launches per step, {kernels:.2f} ms of kernels")
    print(ev.table(sort_by='self_cpu_time_total', row_limit=20, max_name_column_width=60))
    pr = cProfile.Profile(); pr.enable()
    for _ in range(5): step()
    pr.disable(); torch.cuda.synchronize()
    st = pstats.Stats(pr); st.sort_stats('tottime').print_stats(25); st.sort_stats('cumtime').print_stats(25)

for spec in sys.argv[1:]: run(*map(int, spec.split(',')))
