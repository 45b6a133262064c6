#!/usr/bin/env bash
# The passkey proof of notebook 14: NSA retrieves keys that no stack of windows can reach, a window-only model does not,
# and taking away the blocks that the compressed scores chose takes the keys away. Four runs of 9.5M-12.6M parameters, two at a
# time on one GPU, then the sweeps: about 9 minutes on one H100 at the defaults (505 s in one run). What to expect is in
# notebook 14's results, read from results/longctx/.
#   stage 1 (OUT/short): configs/passkey_text_512.yaml from scratch, NSA and window-only side by side (keys 59..492 tokens back)
#   stage 2 (OUT/long):  seq_len 2048 (keys 59..2028 back), NSA and window-only both started from stage 1's NSA weights
#   then: scripts/passkey_eval.py (through scripts/passkey_grid.sh) sweeps each stage's models and probes their selection, and
#   scripts/passkey_ablate.py asks both NSA models again with their forced blocks alone.
# Usage: bash scripts/passkey_proof.sh OUT      (env: STEPS1=2000 STEPS2=1800 LR2=3e-4 N1=64 N2=48; EXTRA=overrides for every run)
set -euo pipefail
OUT=$1; mkdir -p "$OUT"; export PYTHONUNBUFFERED=1
C=configs/passkey_text_512.yaml RUNS="nsa:model.attn=nsa;win:model.attn=window"
D1=64,96,128,160,192,256,320,384,448,480
D2=64,128,192,256,384,512,768,1024,1280,1536,1792,2000
CONFIG=$C RUNS=$RUNS STEPS=${STEPS1:-2000} MIN=0 N=${N1:-64} SPREAD=32 DIST=$D1 bash scripts/passkey_grid.sh "$OUT/short"
LR2=${LR2:-3e-4}
CONFIG=$C RUNS=$RUNS STEPS=${STEPS2:-1800} MIN=0 N=${N2:-48} SPREAD=32 DIST=$D2 INIT=train.init_from="$OUT/short/runs/nsa" \
  EXTRA="train.seq_len=2048 train.batch_size=16 train.lr=$LR2 train.min_lr=$(python3 -c "print($LR2 / 10)") train.warmup_steps=50 ${EXTRA:-}" \
  bash scripts/passkey_grid.sh "$OUT/long"
python3 scripts/passkey_ablate.py "$OUT" nsa_512="$OUT/short/runs/nsa" nsa_2048="$OUT/long/runs/nsa" --dist $D1,$D2 --n ${N2:-48} --spread 32
