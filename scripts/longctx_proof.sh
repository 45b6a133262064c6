#!/usr/bin/env bash
# The long-context runs of notebook 14 on one GPU, every one through nsa_nb_train:
#   lm            the 125M model at seq_len 8192 on the standard library's sources, NSA then dense, LM_MIN minutes each
#   passkey_base  a small NSA model trained as a language model on the standard library at seq_len 2048 for BASE_MIN
#                 minutes (BASE_STEPS steps of schedule); its weights alone (bf16, with the config) go to OUT/pk_base.pt
#   passkey_ft    from OUT/pk_base.pt (or BASE=file): fine-tuned on passkey retrieval (keys 59..2028 tokens back) as NSA
#                 and as window-only (the same weights without compression and selection), FT_STEPS steps each at FT_LR;
#                 then accuracy against distance of both (passkey.csv) and NSA's selection probe (probe_NSA.csv): scripts/passkey_eval.py
#   passkey       both passkey stages
# Time: lm takes 2 x LM_MIN minutes (20 at the default); each passkey stage about 10 minutes on one H100 at the defaults.
# EXTRA=overrides after the stage's own (a CPU trial: tiny model); N=samples per distance in the sweep (100); DIST=64,128,... its distances.
# Usage: LM_MIN=10 BASE_MIN=7 BASE_STEPS=1500 FT_STEPS=1200 bash scripts/longctx_proof.sh OUT [lm] [passkey_base] [passkey_ft]
set -uo pipefail
OUT=${1:-runs/longctx}; shift || true; WHAT=${*:-lm passkey}
LM_MIN=${LM_MIN:-10}; BASE_MIN=${BASE_MIN:-7}; BASE_STEPS=${BASE_STEPS:-1500}; FT_STEPS=${FT_STEPS:-1200}; FT_LR=${FT_LR:-3e-4}
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
  for a in nsa dense; do run lm_$a --config configs/longctx_8k.yaml model.attn=$a train.max_minutes=$LM_MIN; done
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
