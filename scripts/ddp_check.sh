#!/usr/bin/env bash
# The multi-GPU check of notebook 14: configs/ddp_check.yaml on 1 GPU and on N GPUs at the same global batch,
# the 1-GPU run with another seed (the run-to-run noise), then the N-GPU run once more, sent SIGTERM once its step-75 checkpoint
# exists: it finishes the step it is in and checkpoints there (step 75 or a few steps later, the step 'latest' names), and
# --resume continues from that checkpoint, not from step 75.
# Five runs of 150 steps of a 23M-parameter model: about 5 minutes on a node of 2 GPUs. It checks that the runs agree; its
# tokens/s is not the speed of training on N GPUs (it logs every step, and its small model's step is short):
# scripts/ddp_scaling.sh measures that.
# Usage: bash scripts/ddp_check.sh OUT [N]      (writes OUT/{gpu1,gpuN,resumed}/ and OUT/ddp.json)
# EXTRA="key=value ..." adds overrides to every run (e.g. a tiny model and train.device=cpu to try the script on a CPU);
# NEXTRA to the N-GPU runs only. Context parallelism (notebook 07b), N ranks sharing each sequence of 32768 tokens:
#   EXTRA="train.seq_len=32768 train.batch_size=2" NEXTRA="train.context_parallel=2" NAME=cp bash scripts/ddp_check.sh OUT 2
# NAME (default ddp) names the summary, OUT/NAME.json.
set -uo pipefail
OUT=${1:-runs/ddp_check}; N=${2:-2}; NAME=${NAME:-ddp}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0} TORCH_NCCL_ASYNC_ERROR_HANDLING=1 OMP_NUM_THREADS=4
C=(--config configs/ddp_check.yaml train.overwrite=true ${EXTRA:-})
TR=(torchrun --standalone --nproc_per_node="$N" -m nsa_nb.cli)
# the two 1-GPU runs side by side, one GPU each (a CPU-only try runs them one after the other)
one() { CUDA_VISIBLE_DEVICES=$1 python3 -m nsa_nb.cli "${C[@]}" train.out_dir="$OUT/$2" ${3:-} > "$OUT/$2.log" 2>&1; echo "$2 rc=$?"; }
GPUS=$(python3 -c "import torch; print(torch.cuda.device_count())")
if [ "$GPUS" -ge 2 ]; then one 0 gpu1 & one 1 gpu1_seed2 train.seed=2 & wait; else one 0 gpu1; one 0 gpu1_seed2 train.seed=2; fi
"${TR[@]}" "${C[@]}" ${NEXTRA:-} train.out_dir="$OUT/gpu$N" > "$OUT/gpu$N.log" 2>&1; echo "gpu$N rc=$?"
"${TR[@]}" "${C[@]}" ${NEXTRA:-} train.out_dir="$OUT/resumed" > "$OUT/resumed_part1.log" 2>&1 & pid=$!
while [ ! -f "$OUT/resumed/checkpoints/step_0000075.pt" ] && kill -0 $pid 2>/dev/null; do sleep 0.5; done
kill -TERM $pid 2>/dev/null; wait $pid; echo "stopped by SIGTERM after step 75: rc=$? (torchrun's code; it resumes from latest: $(cat "$OUT/resumed/checkpoints/latest" 2>/dev/null))"
"${TR[@]}" --config configs/ddp_check.yaml ${EXTRA:-} ${NEXTRA:-} train.out_dir="$OUT/resumed" --resume > "$OUT/resumed_part2.log" 2>&1; echo "resumed rc=$?"
python3 - "$OUT" "$N" "$NAME" <<'PY'
import json, sys
from nsa_nb.longctx import read_run, compare_losses, steady_tokens_per_s
d, n, name = sys.argv[1:4]
r1, rn, rr, rs = read_run(f'{d}/gpu1'), read_run(f'{d}/gpu{n}'), read_run(f'{d}/resumed'), read_run(f'{d}/gpu1_seed2')
out = dict(gpus=int(n), one_vs_n=compare_losses(r1, rn), seed_noise_one_gpu=compare_losses(r1, rs), resumed_vs_uninterrupted=compare_losses(rn, rr),
           resumed_after_step_75=compare_losses(rn, rr, after=75),
           tokens_per_s={'1': steady_tokens_per_s(r1), n: steady_tokens_per_s(rn)},
           status={'gpu1': r1['metrics'].get('status'), f'gpu{n}': rn['metrics'].get('status'), 'resumed': rr['metrics'].get('status')})
out['scaling'] = out['tokens_per_s'][n] / out['tokens_per_s']['1'] if all(out['tokens_per_s'].values()) else None
open(f'{d}/{name}.json', 'w').write(json.dumps(out, indent=1)); print(json.dumps(out, indent=1))
PY
