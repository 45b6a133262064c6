#!/usr/bin/env bash
# Passkey grid (notebook 14): several passkey runs at once on one GPU (the models of configs/passkey_*.yaml are small enough
# to train side by side), then scripts/passkey_eval.py: passkey accuracy against distance of every run and, for NSA runs, the
# per-query selection probe; NSA weights (bf16, with their config) go to OUT/w_NAME.pt for scripts/passkey_query_probe.py.
# Time: the runs' own (MIN minutes each at most, 6.5 by default, side by side), then a minute or two per model for the sweep.
# Two modes:
#   fine-tunes of a pretrained base (CONFIG unset): configs/passkey_2k.yaml with nsa.w=64 nsa.n_sel=8 (6 x 64 = 384 tokens of
#     window reach), keys drawn >= 400 tokens back, answer-only loss, lr 3e-4 -> 3e-5, then each run's own overrides.
#     INIT=train.init_from=FILE names the base: the passkey_base stage of scripts/longctx_proof.sh run with EXTRA="nsa.w=64 nsa.n_sel=8".
#   CONFIG=FILE: every run on that config alone (e.g. configs/passkey_text_512.yaml, as scripts/passkey_proof.sh does), from
#     scratch unless INIT is given.
#   RUNS="name:overrides;name:overrides"  the runs (e.g. "nsa:model.attn=nsa nsa.separate_kv=true;win:model.attn=window")
#   STEPS, MIN (train.max_minutes), EXTRA (more overrides for every run)
#   DIST=64,128,...  N=samples per distance  SPREAD=64 (distances spread over a block: every key-block alignment)
#   EXTRA_SWEEP="label=weights.pt,..."   more models to sweep (and probe)
#   RESUME=1     continues every run from its latest checkpoint instead of starting over (repeat the runs' STEPS; INIT is not reloaded)
# Usage: RUNS="..." INIT=train.init_from=base.pt SPREAD=64 N=64 bash scripts/passkey_grid.sh OUT
set -uo pipefail
OUT=$1; mkdir -p "$OUT/runs"; export PYTHONUNBUFFERED=1
EXTRA=${EXTRA:-}; MIN=${MIN:-6.5}
INIT=${INIT:-}
if [[ -z ${CONFIG:-} ]]; then
  CONFIG=configs/passkey_2k.yaml
  [[ -n $INIT || ${RESUME:-0} == 1 ]] || { echo "the fine-tunes need their base: INIT=train.init_from=FILE (the passkey_base stage of scripts/longctx_proof.sh with EXTRA=\"nsa.w=64 nsa.n_sel=8\"), or CONFIG=FILE to train from scratch"; exit 1; }
fi
if [[ $CONFIG == configs/passkey_2k.yaml && ( -n $INIT || ${RESUME:-0} == 1 ) ]]; then      # the fine-tunes of a pretrained base
  SETUP="nsa.w=64 nsa.n_sel=8 train.steps=${STEPS:-900} train.lr=3e-4 train.min_lr=3e-5 train.eval_every=250 task.min_distance=400"
else SETUP=${STEPS:+train.steps=$STEPS}; fi
if [[ ${RESUME:-0} == 1 ]]; then START=--resume; else START=train.overwrite=true; SETUP="$SETUP $INIT"; fi
BASEF=${INIT#train.init_from=}
[[ -z $INIT || $START == --resume || -e $BASEF ]] || { echo "no base weights at $BASEF: run the passkey_base stage of scripts/longctx_proof.sh (EXTRA=\"nsa.w=64 nsa.n_sel=8\") or set INIT=train.init_from=FILE"; exit 1; }
run() { local name=$1; shift
  local log="$OUT/runs/$name.log"
  [[ $START == --resume ]] || : > "$log"
  python3 -m nsa_nb.cli --config "$CONFIG" $SETUP train.max_minutes=$MIN "$@" $EXTRA train.out_dir="$OUT/runs/$name" $START >> "$log" 2>&1
  echo "$name rc=$? $(tr '\r' '\n' < "$log" | grep -oE '(done|stopped) at step [0-9]+' | tail -1)"; }
NAMES=()
IFS=';' read -ra SPECS <<< "$RUNS"
for s in "${SPECS[@]}"; do n=${s%%:*}; NAMES+=($n); run $n ${s#*:} & done
wait
for r in "${NAMES[@]}"; do echo "== $r"; tr '\r' '\n' < $OUT/runs/$r.log | grep -E "^step [0-9]+: val|Error|error|initialised" | tail -6; done
EXTRA_LABELS=(); IFS=',' read -ra EXTRA_LABELS <<< "${EXTRA_SWEEP:-}"
python3 scripts/passkey_eval.py "$OUT" $(for r in "${NAMES[@]}"; do echo "$r=$OUT/runs/$r"; done) "${EXTRA_LABELS[@]}" \
  --dist "${DIST:-64,128,256,384,480,640,768,1024,1280,1536,1792,2000}" --n "${N:-50}" --spread "${SPREAD:-0}" --prefix grid_ --weights
