#!/usr/bin/env bash
# Context-parallel training speed of the 125M model (configs/m7c_125m.yaml, compiled, bf16, one sequence per step):
# each job ATTN:SEQ_LEN on 1, 2 and 4 GPUs of this node with train.context_parallel=N (notebook 07b), NSA and dense
# attention under the same split. Each run is a real `nsa_nb_train` under torchrun (the standard library's text as
# bytes: offline), STEPS steps with a log line each; its tokens/s is the median of its steps after step SKIP (compiling
# is before step 1). Runs that fit side by side on the node's GPUs run at once; a run past RUN_S seconds is stopped
# (its row says so). A job whose sequence exceeds MAX_PER_GPU tokens per GPU is left out.
# Writes OUT/<attn>_<seq_len>_cp<N>/ (run directories), OUT/<name>.log, and OUT/cp_scaling.json, made from every run
# directory in OUT (so that calls with different jobs add up): the result file behind notebook 14's section on
# context parallelism. Activation checkpointing is on unless CKPT=0 (the same setting for every N).
# Usage: bash scripts/cp_scaling.sh OUT [GPU counts: "1 2 4"] [jobs: "nsa:262144 dense:262144 nsa:1048576"]
#   STEPS=6 SKIP=2 RUN_S=480 MAX_PER_GPU=1048576 CKPT=1; EXTRA="key=value ..." adds overrides to every run.
set -uo pipefail
OUT=${1:?usage: bash scripts/cp_scaling.sh OUT [GPU counts] [jobs ATTN:SEQ_LEN ...]}
COUNTS=${2:-1 2 4}; JOBS=${3:-nsa:262144 dense:262144 nsa:1048576}
STEPS=${STEPS:-6}; SKIP=${SKIP:-2}; RUN_S=${RUN_S:-480}; MAX_PER_GPU=${MAX_PER_GPU:-1048576}; CKPT=${CKPT:-1}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0} TORCH_NCCL_ASYNC_ERROR_HANDLING=1 OMP_NUM_THREADS=4
GPUS=$(python3 -c "import torch; print(torch.cuda.device_count())")
[ "$GPUS" -ge 1 ] || { echo "cp_scaling.sh: no GPU here (it times GPUs)"; exit 2; }
for n in $COUNTS; do [ "$n" -le "$GPUS" ] || { echo "cp_scaling.sh: $n GPUs asked for, $GPUS here"; exit 2; }; done
ckpt=$([ "$CKPT" = 1 ] && echo true || echo false)

run() {  # run NAME N FIRST_GPU ATTN SEQ_LEN: one torchrun job on GPUs FIRST_GPU .. FIRST_GPU+N-1
  local name=$1 n=$2 first=$3 attn=$4 T=$5
  local devs; devs=$(seq -s, "$first" $((first + n - 1)))
  CUDA_VISIBLE_DEVICES=$devs timeout -k 90 -s INT "$RUN_S" torchrun --standalone --nproc_per_node="$n" \
    -m nsa_nb.cli --config m7c_125m \
    model.attn="$attn" data.dataset=stdlib data.tokenizer=bytes train.seq_len="$T" train.batch_size=1 \
    train.context_parallel="$n" train.accumulate_grad_batches=1 train.steps="$STEPS" train.warmup_steps=1 \
    train.log_every=1 train.save_every=0 train.eval_every=0 train.sample_tokens=0 train.compile=true \
    train.gradient_checkpointing="$ckpt" train.tensorboard=false train.overwrite=true train.out_dir="$OUT/$name" \
    ${EXTRA:-} > "$OUT/$name.log" 2>&1
  local rc=$?
  echo "$name rc=$rc $(grep -E 'step [0-9]+/' "$OUT/$name.log" | tail -1 | cut -c1-110)"
  [ $rc -eq 0 ] || grep -m3 -E 'OutOfMemory|Error|error:' "$OUT/$name.log" | cut -c1-200
}

for n in $COUNTS; do
  jobs_=(); for j in $JOBS; do T=${j#*:}; [ $((T / n)) -le "$MAX_PER_GPU" ] && jobs_+=("${j%%:*} $T"); done
  per=$((GPUS / n)); i=0
  while [ $i -lt ${#jobs_[@]} ]; do   # a wave: as many jobs as fit side by side
    for ((k = 0; k < per && i < ${#jobs_[@]}; k++, i++)); do
      read -r attn T <<< "${jobs_[$i]}"
      run "${attn}_${T}_cp${n}" "$n" $((k * n)) "$attn" "$T" &
    done
    wait
  done
done

python3 - "$OUT" "$SKIP" "$ckpt" <<'PY'
import json, sys
from pathlib import Path
from nsa_nb.longctx import cp_rows
from nsa_nb.results import save_result
out, skip, ckpt = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rows = cp_rows(out, skip)
res = save_result(out / 'cp_scaling.json', rows, "bash scripts/cp_scaling.sh OUT [GPU counts] [jobs]",
                  title="Context-parallel training: one sequence of the 125M model split over 1, 2 and 4 GPUs, compiled, bf16",
                  notes=f"Each row an nsa_nb_train run under torchrun with train.context_parallel = its GPUs, batch 1, "
                        f"activation checkpointing {'on' if ckpt == 'true' else 'off'} (standard-library text as bytes, "
                        f"the model's 50304-token vocabulary); tokens/s the median of its steps after step {skip}. "
                        f"NCCL_NVLS_ENABLE=0.")
for r in rows: print(json.dumps(r))
PY
