"""Context parallelism against one process, on the GPUs at real sizes: the loss and every parameter's gradient of a
context-parallel step (`train.context_parallel=N`, notebook 07b) beside the one-process step on the same sequence.

Every rank builds the same model (same seed) and the same sequence, runs the one-process step itself, then its share
of the split step; the split step's loss and gradients are averaged over the ranks as data parallelism would. In bf16
a difference is only meaningful beside bf16's own error, so the one-process step also runs in fp32 (the same
kernels, no autocast): the check passes when, for every parameter, the split step's distance to the one-process bf16
step is at most `--slack` times the one-process bf16 step's distance to fp32 (plus 1e-6 of the gradient's norm).

    NCCL_NVLS_ENABLE=0 torchrun --standalone --nproc_per_node=2 scripts/cp_check.py --seq_len 32768 --compile --out OUT/cp_check.json
    # on one GPU (every rank on cuda:0, gloo's collectives): the GPU kernels under the split, not its speed
    torchrun --standalone --nproc_per_node=2 scripts/cp_check.py --share_gpu --seq_len 32768 --compile
    # on a CPU (gloo, the kernels interpreted): a tiny model
    TRITON_INTERPRET=1 torchrun --standalone --nproc_per_node=2 scripts/cp_check.py --config tiny --seq_len 256 \
        --precision fp32 model.backend=triton

Prints one line per rank count and attention, and writes the rows (rank 0) to `--out` as JSON.
"""
import argparse, json, os, sys, time
import torch
import torch.distributed as dist
from nsa_nb.config import named_config
from nsa_nb.model import TransformerLM
from nsa_nb.context import ContextSplit, cp_shard
from nsa_nb.train import autocast_ctx

p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0], formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument('--config', default='m7c_125m', help="shipped profile whose model and nsa sections are used")
p.add_argument('--attn', default='nsa', help="nsa, dense or window (comma-separated: each in turn)")
p.add_argument('--seq_len', type=int, default=32768)
p.add_argument('--precision', default='bf16', choices=['bf16', 'fp32'], help="the split step's and the compared step's")
p.add_argument('--compile', action='store_true', help="torch.compile the model (both steps)")
p.add_argument('--checkpointing', action='store_true', help="activation checkpointing in both steps")
p.add_argument('--slack', type=float, default=2.0, help="allowed ratio to bf16's own error (see above)")
p.add_argument('--share_gpu', action='store_true', help="every rank on cuda:0, gloo instead of NCCL (NCCL refuses two ranks on one GPU)")
p.add_argument('--out', default=None, help="JSON file for rank 0's rows")
p.add_argument('overrides', nargs='*', help="section.field=value settings of the profile, e.g. model.backend=triton")
a = p.parse_args()

cuda = torch.cuda.is_available()
rank, N = int(os.environ.get('RANK', 0)), int(os.environ.get('WORLD_SIZE', 1))
dev = torch.device(f"cuda:{0 if a.share_gpu else int(os.environ.get('LOCAL_RANK', 0))}" if cuda else 'cpu')
if cuda: torch.cuda.set_device(dev)
else: torch.set_num_threads(1)
dist.init_process_group('nccl' if cuda and not a.share_gpu else 'gloo')
if a.seq_len % (2 * N): sys.exit(f"--seq_len={a.seq_len} must be a multiple of 2 x {N} ranks")

def step(model, fwd, x, y, precision, split):
    "Loss and gradients (averaged over the ranks when `split`) of one step on the sequence `x, y [1, T]`."
    model.set_context_parallel(split)
    if split: x, y = cp_shard(x, split.size, split.rank), cp_shard(y, split.size, split.rank)
    with autocast_ctx(dev, precision): loss = fwd(x, y)
    loss.backward()
    loss, grads = loss.detach().float(), [q.grad.float() for q in model.parameters()]
    model.zero_grad(set_to_none=True)
    if split:
        for t in (loss, *grads): dist.all_reduce(t); t /= split.size
    return loss.item(), grads

rows = []
for attn in a.attn.split(','):
    cfg = named_config(a.config, [*a.overrides, f'model.attn={attn}'])
    torch.manual_seed(0)
    model = TransformerLM(cfg.model, cfg.nsa).to(dev)
    model.set_gradient_checkpointing(a.checkpointing)
    fwd = torch.compile(model) if a.compile else model
    g = torch.Generator().manual_seed(1)
    seq = torch.randint(0, cfg.model.vocab_size, (1, a.seq_len + 1), generator=g).to(dev)
    x, y = seq[:, :-1], seq[:, 1:]
    t0 = time.perf_counter()
    loss1, g1 = step(model, fwd, x, y, a.precision, None)                  # the one-process step, on every rank
    loss32, g32 = step(model, model, x, y, 'fp32', None) if a.precision != 'fp32' else (loss1, g1)
    fell = lambda: sum(b.attn.get_fallback_counters()['total_fallbacks'] for b in model.blocks) if attn == 'nsa' else 0
    before = fell()                                       # fp32 may take the reference path; the split step must not
    loss_cp, g_cp = step(model, fwd, x, y, a.precision, ContextSplit(rank, N))
    dist_ = lambda u, v: ((u - v).norm() / v.norm().clamp_min(1e-30)).item()
    names = [n for n, _ in model.named_parameters()]
    d_cp, d_prec = [dist_(u, v) for u, v in zip(g_cp, g1)], [dist_(u, v) for u, v in zip(g1, g32)]
    worst = max(range(len(names)), key=lambda i: d_cp[i] / (d_prec[i] + 1e-6))
    ok = all(c <= a.slack * q + 1e-6 for c, q in zip(d_cp, d_prec)) if a.precision != 'fp32' else max(d_cp) < 1e-4
    falls = fell() - before
    ok = ok and falls == 0
    row = dict(attn=attn, ranks=N, seq_len=a.seq_len, precision=a.precision, compiled=a.compile, device=str(
               torch.cuda.get_device_name(dev) if cuda else 'cpu'), loss_one=loss1, loss_split=loss_cp, loss_fp32=loss32,
               grad_rel_split=max(d_cp), grad_rel_precision=max(d_prec), worst=names[worst],
               worst_split=d_cp[worst], worst_precision=d_prec[worst], fallbacks=falls, passed=bool(ok),
               shared_gpu=a.share_gpu, seconds=round(time.perf_counter() - t0, 1))
    rows.append(row)
    if rank == 0:
        print(f"N={N} {attn} T={a.seq_len} {a.precision}{' compiled' if a.compile else ''}: loss {loss_cp:.6f} split, "
              f"{loss1:.6f} one process, {loss32:.6f} fp32 | gradient distance (norm of the difference / norm) split "
              f"{max(d_cp):.2e}, {a.precision} vs fp32 {max(d_prec):.2e}; worst ratio {names[worst]} "
              f"{d_cp[worst]:.2e} / {d_prec[worst]:.2e} | fallbacks {falls} | {'PASS' if ok else 'FAIL'}", flush=True)
    del model, fwd, g1, g32, g_cp
    if cuda: torch.cuda.empty_cache()

if rank == 0 and a.out:
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, 'w') as f: json.dump(rows, f, indent=1)
dist.destroy_process_group()
sys.exit(0 if all(r['passed'] for r in rows) else 1)
