#!/usr/bin/env bash
# Data-parallel scaling of the 125M model (configs/m7c_125m.yaml's body, its GPT-2-sized vocabulary), compiled, bf16,
# 32k tokens per GPU per step: NSA and dense attention at seq_len 2048 and 8192 on 1, 2 and 4 GPUs of this node. Each
# run is a real `nsa_nb_train` under torchrun (the standard library's text as bytes: offline), 40 steps, a log line
# every 10; its tokens/s is the median of its logged windows after step 10 (compiling is before step 1). Runs that fit
# side by side on the node's GPUs run at once (one 4-GPU run, two 2-GPU runs or four 1-GPU runs at a time).
# About 10 minutes on a node of four H200s (compiling dominates: about a minute a wave). Writes OUT/<attn>_<seq_len>_gpu<N>/
# (run directories and logs) and OUT/ddp_scaling.json (the result file behind notebook 14's multi-GPU table).
# Usage: bash scripts/ddp_scaling.sh OUT [GPU counts: "1 2 4"] [attentions: "nsa dense"] [lengths: "2048 8192"]
#   EXTRA="key=value ..." adds overrides to every run (e.g. train.ddp_bucket_mb=100); STEPS=N changes the 40 steps.
set -uo pipefail
OUT=${1:?usage: bash scripts/ddp_scaling.sh OUT [GPU counts] [attentions] [lengths]}
COUNTS=${2:-1 2 4}; ATTNS=${3:-nsa dense}; LENS=${4:-2048 8192}; STEPS=${STEPS:-40}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0} TORCH_NCCL_ASYNC_ERROR_HANDLING=1 OMP_NUM_THREADS=4
GPUS=$(python3 -c "import torch; print(torch.cuda.device_count())")
[ "$GPUS" -ge 1 ] || { echo "ddp_scaling.sh: no GPU here (it times GPUs)"; exit 2; }
for n in $COUNTS; do [ "$n" -le "$GPUS" ] || { echo "ddp_scaling.sh: $n GPUs asked for, $GPUS here"; exit 2; }; done

run() {  # run NAME N FIRST_GPU ATTN SEQ_LEN: one torchrun job on GPUs FIRST_GPU .. FIRST_GPU+N-1
  local name=$1 n=$2 first=$3 attn=$4 T=$5
  local devs; devs=$(seq -s, "$first" $((first + n - 1)))
  CUDA_VISIBLE_DEVICES=$devs torchrun --standalone --nproc_per_node="$n" -m nsa_nb.cli --config m7c_125m \
    model.attn="$attn" data.dataset=stdlib data.tokenizer=bytes train.seq_len="$T" \
    train.batch_size=$((n * 32768 / T)) train.accumulate_grad_batches=1 train.steps="$STEPS" train.warmup_steps=10 \
    train.log_every=10 train.save_every=0 train.eval_every=0 train.sample_tokens=0 train.compile=true \
    train.tensorboard=false train.overwrite=true train.out_dir="$OUT/$name" ${EXTRA:-} > "$OUT/$name.log" 2>&1
  echo "$name rc=$? ($(grep -m1 'compiled the model' "$OUT/$name.log" | cut -c1-60))"
}

for n in $COUNTS; do
  jobs_=(); for attn in $ATTNS; do for T in $LENS; do jobs_+=("$attn $T"); done; done
  per=$((GPUS / n)); i=0
  while [ $i -lt ${#jobs_[@]} ]; do   # a wave: as many jobs as fit side by side
    for ((k = 0; k < per && i < ${#jobs_[@]}; k++, i++)); do
      read -r attn T <<< "${jobs_[$i]}"
      run "${attn}_${T}_gpu${n}" "$n" $((k * n)) "$attn" "$T" &
    done
    wait
  done
done

python3 - "$OUT" "$COUNTS $ATTNS $LENS" <<'PY'
import json, sys
from pathlib import Path
from nsa_nb.longctx import read_run, steady_tokens_per_s
from nsa_nb.results import save_result
out, rows = Path(sys.argv[1]), []
for d in sorted(p for p in out.iterdir() if (p / 'training.csv').is_file()):
    r = read_run(d); tr = r['train']; c = r['config']['train']; n = r['env'].get('world_size', 1)
    late = tr[tr.step > 10]
    rows.append(dict(attn=r['config']['model']['attn'], seq_len=c['seq_len'], gpus=n, tokens_per_s=round(steady_tokens_per_s(r)), step_ms=float(late.step_ms.median()),
                     mfu_per_gpu=float(late.mfu.median()) if 'mfu' in late else None,
                     peak_gib=float(late.mem_peak_gib.max()) if 'mem_peak_gib' in late else None))
one = {(x['attn'], x['seq_len']): x['tokens_per_s'] for x in rows if x['gpus'] == 1}
for x in rows:
    base = one.get((x['attn'], x['seq_len']))
    x['speedup'] = round(x['tokens_per_s'] / base, 3) if base else None
    x['efficiency'] = round(x['speedup'] / x['gpus'], 3) if base else None
rows.sort(key=lambda x: (x['attn'] != 'nsa', x['seq_len'], x['gpus']))
res = save_result(out / 'ddp_scaling.json', rows, "bash scripts/ddp_scaling.sh OUT",
                  title="Data-parallel scaling: the 125M model compiled, bf16, 32k tokens per GPU per step",
                  notes="Each row a 40-step nsa_nb_train run under torchrun (standard-library text as bytes, the "
                        "model's 50304-token vocabulary); tokens/s the median of its logged windows after step 10. "
                        "NCCL_NVLS_ENABLE=0. Runs that fit side by side ran at once on the node's GPUs.")
print(json.dumps(rows, indent=1))
PY
