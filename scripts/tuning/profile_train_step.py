"""Where a training step of the 125M model goes (configs/m7c_125m.yaml numbers, bf16, fused AdamW), NSA against dense, on one GPU:
the CUDA kernels of two profiled steps grouped by name, their total against the step's wall time (a gap means the host is the
bottleneck), one table per (attention, seq_len) with 32k tokens per step, the step `nsa_nb_bench train` times (`synthetic_train_step`).
With OPS=1 a second table per step groups the kernel time by the PyTorch operator that launched it (aten::copy_, aten::sort, ...),
which names the glue around the kernels; ATTN=nsa (or dense) profiles one attention only; ROWS=N: rows a table (30).
INPUTS=RUN (a run directory or checkpoint): that run's model, and each row twice, fresh on random tokens and from the run's
weights on its held-out text (as `nsa_nb_bench train --inputs RUN`).
About 2 minutes on one H100 at the default lengths.
Usage: [OPS=1] [ATTN=nsa] [ROWS=30] [INPUTS=RUN] python3 scripts/tuning/profile_train_step.py OUT.txt [seq_len ...]   (default 2048 8192)"""
import os, sys, time
import torch
from torch.profiler import profile, ProfilerActivity
ops = os.environ.get('OPS') == '1'
n_rows = int(os.environ.get('ROWS', 30))
from nsa_nb.config import named_config, config_from_dict
from nsa_nb.bench import synthetic_train_step, TrainedRun

if len(sys.argv) < 2: sys.exit(__doc__)
lengths = [int(x) for x in sys.argv[2:]] or [2048, 8192]
out = open(sys.argv[1], 'w')
def say(s): print(s, flush=True); out.write(s + '\n'); out.flush()
say(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
run = TrainedRun(os.environ['INPUTS']) if os.environ.get('INPUTS') else None     # the run's model, data and tokenizer
raw = named_config('m7c_125m').to_dict() if run is None else run.raw_config()
for T in lengths:
    for attn, kind in [(a, k) for a in os.environ.get('ATTN', 'dense,nsa').split(',')
                       for k in (('random', 'trained') if run and a == 'nsa' else ('random',))]:
        B = max(1, 32768 // T)
        own = {} if kind == 'random' else run.step_inputs(B, T)
        step, model, _ = synthetic_train_step(config_from_dict(raw, [f'model.attn={attn}']), T, B, torch.device('cuda'),
                                              **own)
        for _ in range(3): step()
        torch.cuda.synchronize(); t0 = time.perf_counter()
        for _ in range(3): step()
        torch.cuda.synchronize(); wall = (time.perf_counter() - t0) / 3 * 1e3
        with profile(activities=[ProfilerActivity.CUDA] + [ProfilerActivity.CPU] * ops) as prof:
            for _ in range(2): step()
            torch.cuda.synchronize()
        ev = [e for e in prof.key_averages() if e.device_type.name == 'CUDA']
        gpu = sum(e.self_device_time_total for e in ev) / 2 / 1e3
        say(f"\n== {attn} ({kind} inputs) seq_len={T} batch={B}: step {wall:.1f} ms wall, {gpu:.1f} ms of CUDA kernels ==")
        for e in sorted(ev, key=lambda e: -e.self_device_time_total)[:n_rows]:
            say(f"{e.self_device_time_total / 2 / 1e3:9.2f} ms {e.count // 2:6d}x  {e.key[:110]}")
        if ops:                                                    # kernel time by the operator that launched it
            cpu = [e for e in prof.key_averages() if e.device_type.name == 'CPU' and e.self_device_time_total > 0]
            say(f"-- by operator (kernels each one launched itself) --")
            for e in sorted(cpu, key=lambda e: -e.self_device_time_total)[:n_rows]:
                say(f"{e.self_device_time_total / 2 / 1e3:9.2f} ms {e.count // 2:6d}x  {e.key[:110]}")
        del step, model; torch.cuda.empty_cache()
