#!/usr/bin/env bash
# The long-context runs of notebook 14 on one GPU or several, every one through nsa_nb_train:
#   lm            the 125M model's body at seq_len LM_SEQ (8192; 32768 too), 32k tokens per step, NSA and dense for
#                 LM_MIN minutes each, one pair per seed in
#                 SEEDS, all validated on the same held-out files (data.split_seed=0); with N GPUs visible the runs go
#                 N at a time, one per GPU (4 GPUs: two seeds at once). Each model's schedule (train.steps: STEPS_NSA,
#                 STEPS_DENSE) is a little longer than it gets through in LM_MIN on one H100, so that the time limit,
#                 not the schedule, ends both runs with their learning rates decayed: a shared schedule would let the
#                 faster model finish early. SAME_SCHEDULE=1 adds a dense run on NSA's schedule (the per-token
#                 comparison, step for step). LM_DATA: 'pysrc' (default) for this node's installed Python sources
#                 (scripts/pysrc_corpus.py, LM_MB MB), 'stdlib' (8.6M tokens: repeats within minutes), or a .jsonl/.txt path.
#                 The default schedules are for 8192 (4700 and 5650 steps); at LM_SEQ=32768 they are 3900 and 2600.
#                 Then OUT/lm_<L>k.json and OUT/lm_<L>k_curves.csv (lm_8k, lm_32k; scripts/same_time_result.py; copy them to results/longctx;
#                 seeds run on separate machines: pool their files with scripts/same_time_result.py PREFIX --add A.json --add B.json)
#   passkey_base  a small NSA model trained as a language model on the standard library at seq_len 2048 for BASE_MIN
#                 minutes (BASE_STEPS steps of schedule); its weights alone (bf16, with the config) go to OUT/pk_base.pt
#   passkey_ft    from OUT/pk_base.pt (or BASE=file): fine-tuned on passkey retrieval (keys 59..2028 tokens back) as NSA
#                 and as window-only (the same weights without compression and selection), FT_STEPS steps each at FT_LR;
#                 then accuracy against distance of both (passkey.csv) and NSA's selection probe (probe_NSA.csv): scripts/passkey_eval.py
#   passkey       both passkey stages
# Time: lm takes 2 x LM_MIN minutes per seed on one GPU (LM_MIN on two), plus about 2 minutes a run to load and compile; each passkey stage about 10 minutes on one H100 at the defaults.
# KINDS: the models each seed runs, from nsa, dense and same (default "nsa dense"; SAME_SCHEDULE=1 adds same). With one model
#   alone (KINDS=nsa, say, beside dense runs made earlier with the same seeds, data and LM_MIN on the same kind of GPU) no
#   result is written: the script prints the scripts/same_time_result.py call that takes both models' run directories.
# EXTRA=overrides after the stage's own, for every run (a CPU trial: tiny model; nsa.* settings change only the NSA runs); N=samples per distance in the sweep (100); DIST=64,128,... its distances.
# Usage: SEEDS="1337 1338" SAME_SCHEDULE=1 LM_MIN=8.5 BASE_MIN=7 BASE_STEPS=1500 FT_STEPS=1200 bash scripts/longctx_proof.sh OUT [lm] [passkey_base] [passkey_ft]
#   (default: lm, the runs behind notebook 14's same-time results; the passkey stages are the fine-tuning recipe that
#   notebook 13a reports as leaving the selection unable to find the key, kept to rerun it)
set -uo pipefail
OUT=${1:-runs/longctx}; shift || true; WHAT=${*:-lm}
LM_MIN=${LM_MIN:-8.5}; LM_SEQ=${LM_SEQ:-8192}
if [[ $LM_SEQ == 32768 ]]; then STEPS_NSA=${STEPS_NSA:-3900}; STEPS_DENSE=${STEPS_DENSE:-2600}; fi   # what an H100 gets through
STEPS_NSA=${STEPS_NSA:-4700}; STEPS_DENSE=${STEPS_DENSE:-5650}; SEEDS=${SEEDS:-1337}; SAME_SCHEDULE=${SAME_SCHEDULE:-0}; LM_DATA=${LM_DATA:-pysrc}; LM_MB=${LM_MB:-400}; BASE_MIN=${BASE_MIN:-7}; BASE_STEPS=${BASE_STEPS:-1500}; FT_STEPS=${FT_STEPS:-1200}; FT_LR=${FT_LR:-3e-4}
BASE=${BASE:-$OUT/pk_base.pt}
mkdir -p "$OUT"; export PYTHONUNBUFFERED=1
want() { [[ " $WHAT " == *" $1 "* || ( " $WHAT " == *" passkey "* && $1 == passkey_* ) ]]; }
run() {  # name, then nsa_nb_train arguments
  local name=$1; shift
  echo "== $name: nsa_nb_train $* train.out_dir=$OUT/$name"
  python3 -m nsa_nb.cli "$@" ${EXTRA:-} train.out_dir="$OUT/$name" train.overwrite=true > "$OUT/$name.log" 2>&1
  local rc=$?
  echo "rc=$rc $(tr '\r' '\n' < "$OUT/$name.log" | grep -oE '(done|stopped) at step [0-9]+.*' | tail -1)"
}
if want lm; then
  (( LM_SEQ >= 1024 && 32768 % LM_SEQ == 0 )) || { echo "LM_SEQ=$LM_SEQ: give a power of two from 1024 to 32768 (32k tokens per step)"; exit 1; }
  kinds=${KINDS:-nsa dense}; [[ $SAME_SCHEDULE == 1 && " $kinds " != *" same "* ]] && kinds="$kinds same"
  for k in $kinds; do [[ $k == nsa || $k == dense || $k == same ]] || { echo "KINDS=$KINDS: give models from nsa, dense and same, separated by spaces"; exit 1; }; done
  tag=$(( LM_SEQ / 1024 ))k; shape=(train.seq_len=$LM_SEQ train.batch_size=$(( 32768 / LM_SEQ )))
  data=()
  if [[ $LM_DATA == pysrc ]]; then
    python3 scripts/pysrc_corpus.py "$OUT/pysrc.jsonl" --max-mb "$LM_MB" || exit 1; data=(data.dataset=local data.path="$OUT/pysrc.jsonl")
  elif [[ $LM_DATA != stdlib ]]; then data=(data.dataset=local data.path="$LM_DATA"); fi
  ngpu=$(python3 -c "import torch; print(max(1, torch.cuda.device_count()))")
  IFS=, read -ra gpus <<< "${CUDA_VISIBLE_DEVICES:-}"; (( ${#gpus[@]} )) || gpus=($(seq 0 $(( ngpu - 1 ))))
  i=0; names=(); labels=()
  for s in $SEEDS; do for k in $kinds; do
    case $k in nsa) a=nsa steps=$STEPS_NSA label=NSA;; dense) a=dense steps=$STEPS_DENSE label="dense (SDPA)";;
                same) a=dense steps=$STEPS_NSA label="dense (SDPA) with NSA's schedule";; esac
    [[ $SEEDS == *" "* ]] && label="$label, seed $s"
    CUDA_VISIBLE_DEVICES=${gpus[$(( i % ngpu ))]} run lm_${tag}_${k}_s$s --config configs/longctx_8k.yaml model.attn=$a \
      "${shape[@]}" train.seed=$s train.steps=$steps data.split_seed=0 train.max_minutes=$LM_MIN "${data[@]}" &
    names+=("$OUT/lm_${tag}_${k}_s$s"); labels+=("$label"); i=$(( i + 1 ))
    (( i % ngpu == 0 )) && wait
  done; done; wait
  for n in "${names[@]}"; do [[ -f $n/metrics.json ]] || { echo "run $n did not finish: see $n.log"; exit 1; }; done
  if [[ " $kinds " != *" nsa "* || " $kinds " != *" dense "* ]]; then
    echo "runs of one model ($kinds): the result takes both models' runs of the same seeds, data and LM_MIN:"
    echo "  python3 scripts/same_time_result.py $OUT/lm_$tag ${names[*]} OTHER_RUN_DIRS... --command '...'"
  else (IFS=";"; python3 scripts/same_time_result.py "$OUT/lm_$tag" "${names[@]}" --labels "${labels[*]}" \
    --command "${EXTRA:+EXTRA=\"$EXTRA\" }${KINDS:+KINDS=\"$KINDS\" }SEEDS=\"$SEEDS\" LM_SEQ=$LM_SEQ SAME_SCHEDULE=$SAME_SCHEDULE LM_DATA=$LM_DATA LM_MB=$LM_MB LM_MIN=$LM_MIN STEPS_NSA=$STEPS_NSA STEPS_DENSE=$STEPS_DENSE bash scripts/longctx_proof.sh OUT lm")
  fi
fi
if want passkey_base; then
  run pk_base --config configs/passkey_2k.yaml data.dataset=stdlib task.name= train.steps=$BASE_STEPS train.warmup_steps=100 train.lr=1e-3 train.min_lr=1e-4 train.eval_every=500 train.eval_batches=2 data.val_fraction=0.05 train.max_minutes=$BASE_MIN
  python3 -c "import sys; from nsa_nb.checkpoint import export_weights; print('weights ->', export_weights(*sys.argv[1:]))" "$OUT/pk_base" "$BASE"
fi
if want passkey_ft; then
  [[ -f $BASE ]] || { echo "no pretrained weights at $BASE: run the passkey_base stage first (or set BASE=file)"; exit 1; }
  for a in nsa window; do run pk_$a --config configs/passkey_2k.yaml model.attn=$a train.init_from="$BASE" train.steps=$FT_STEPS train.lr=$FT_LR train.min_lr=3e-5; done
  python3 scripts/passkey_eval.py "$OUT" NSA="$OUT/pk_nsa" window_only="$OUT/pk_window" --n "${N:-100}" ${DIST:+--dist $DIST}
fi
