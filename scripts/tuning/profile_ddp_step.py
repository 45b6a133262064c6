"""Where a data-parallel training step's time goes, per rank: the trainer's own step (`Trainer.train_step`, read one
step late as the loop reads it) of the 125M model, compiled, 32k tokens per GPU, profiled with torch.profiler.
Prints per rank the wall time per step, the GPU's busy time (kernels, merged over streams), NCCL's kernels, the
longest gaps between kernels, and the kernels that take the most time; one line per rank to OUT.json.
Usage: torchrun --standalone --nproc_per_node=N scripts/tuning/profile_ddp_step.py OUT.json [attn] [seq_len] [steps]
(defaults: nsa 2048 3; 10 untimed steps first). About 2 minutes with cold compile caches."""
import json, os, sys, time
from collections import deque
import torch
import torch.distributed as dist
from torch.profiler import profile, ProfilerActivity
from tqdm import tqdm
from nsa_nb.config import load_config
from nsa_nb.train import Trainer

out, attn = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else 'nsa')
T, steps = int(sys.argv[3]) if len(sys.argv) > 3 else 2048, int(sys.argv[4]) if len(sys.argv) > 4 else 3
n = int(os.environ.get('WORLD_SIZE', 1))
cfg = load_config('m7c_125m', [f'model.attn={attn}', 'data.dataset=stdlib', 'data.tokenizer=bytes', f'train.seq_len={T}',
                               f'train.batch_size={n * 32768 // T}', 'train.accumulate_grad_batches=1', 'train.steps=1000',
                               'train.compile=true', 'train.tensorboard=false', 'train.overwrite=true', 'train.eval_every=0',
                               f'train.out_dir=/tmp/profile_ddp_{attn}_{T}_{n}'])
tr = Trainer(cfg, progress=False, verbose=False)
tr.setup(); tr.start(); tr.compile_check()
tr.t_start, tr.out_of_time, tr.bar = time.time(), False, tqdm(disable=True)
queued = deque()
def step():                                          # the loop's order: queue a step, then read the one before
    queued.append(tr.train_step())
    if len(queued) > 1: tr.read_step(queued.popleft())
for _ in range(10): step()
torch.cuda.synchronize()
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
    t0 = time.perf_counter()
    for _ in range(steps): step()
    torch.cuda.synchronize(); wall = (time.perf_counter() - t0) / steps * 1e3
kern = sorted((e.time_range.start, e.time_range.end, e.name) for e in prof.events()
              if e.device_type == torch.autograd.DeviceType.CUDA and e.time_range.end > e.time_range.start)
busy, gaps, end = 0.0, [], None                      # busy: the union of kernel intervals (us)
for s, e, name in kern:
    if end is None or s > end:
        if end is not None: gaps.append((s - end, name))
        busy += e - s; end = e
    elif e > end: busy += e - end; end = e
nccl = sum(e - s for s, e, name in kern if 'nccl' in name.lower())
top = {}
for s, e, name in kern: top[name[:60]] = top.get(name[:60], 0) + (e - s)
row = dict(rank=tr.env.rank, gpus=n, attn=attn, seq_len=T, wall_ms=round(wall, 2), busy_ms=round(busy / 1e3 / steps, 2),
           nccl_ms=round(nccl / 1e3 / steps, 2), kernels_per_step=len(kern) // steps,
           gaps_ms=[(round(g / 1e3, 2), nm[:40]) for g, nm in sorted(gaps, reverse=True)[:8]],
           top_ms=[(nm, round(t / 1e3 / steps, 2)) for nm, t in sorted(top.items(), key=lambda x: -x[1])[:12]])
rows = [None] * n
dist.all_gather_object(rows, row) if n > 1 else rows.__setitem__(0, row)
if tr.env.main:
    for r in rows: print(json.dumps(r))
    with open(out, 'w') as f: json.dump(rows, f, indent=1)
if n > 1: dist.destroy_process_group()
