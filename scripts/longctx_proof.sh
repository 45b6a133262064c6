#!/usr/bin/env bash
# The long-context runs of notebook 14 on one GPU, every one through nsa_nb_train:
#   lm       the 125M model at seq_len 8192 on the standard library's sources, NSA then dense, LM_MIN minutes each
#   passkey  a small NSA model trained as a language model on the standard library for BASE_MIN minutes, then fine-tuned
#            on passkey retrieval at seq_len 2048 (keys 59..2028 tokens back) as NSA and as window-only (the same
#            weights without compression and selection), the same steps each; accuracy against distance into passkey.csv
# Usage: LM_MIN=10 BASE_MIN=5 bash scripts/longctx_proof.sh OUT [lm] [passkey]
set -uo pipefail
OUT=${1:-runs/longctx}; shift || true; WHAT=${*:-lm passkey}
LM_MIN=${LM_MIN:-10}; BASE_MIN=${BASE_MIN:-5}
mkdir -p "$OUT"; export PYTHONUNBUFFERED=1
want() { [[ " $WHAT " == *" $1 "* ]]; }
run() {  # name, then nsa_nb_train arguments
  local name=$1; shift
  echo "== $name: nsa_nb_train $* train.out_dir=$OUT/$name"
  python3 -m nsa_nb.cli "$@" train.out_dir="$OUT/$name" train.overwrite=true > "$OUT/$name.log" 2>&1
  echo "rc=$? $(grep -E '^(done|stopped|train.max_minutes)' "$OUT/$name.log" | tr '\n' ' ')"
}
if want lm; then
  for a in nsa dense; do run lm_$a --config configs/longctx_8k.yaml model.attn=$a train.max_minutes=$LM_MIN; done
fi
if want passkey; then
  run pk_base --config configs/passkey_2k.yaml data.dataset=stdlib train.steps=4000 train.warmup_steps=100 train.lr=1e-3 train.min_lr=1e-4 train.eval_every=500 train.eval_batches=2 data.val_fraction=0.05 train.max_minutes=$BASE_MIN
  for a in nsa window; do run pk_$a --config configs/passkey_2k.yaml model.attn=$a train.init_from="$OUT/pk_base"; done
  python3 - "$OUT" <<'PY'
import sys
from nsa_nb.longctx import passkey_sweep
d = sys.argv[1]
df = passkey_sweep({'NSA': f'{d}/pk_nsa', 'window only (same weights)': f'{d}/pk_window', 'before fine-tuning': f'{d}/pk_base'},
                   [64, 128, 256, 384, 480, 560, 640, 768, 1024, 1280, 1536, 1792, 2000], n=100)
df.to_csv(f'{d}/passkey.csv', index=False); print(df.to_string())
from nsa_nb.longctx import passkey_selection_probe
from nsa_nb.train import model_from_checkpoint
m, cfg, tok = model_from_checkpoint(f'{d}/pk_nsa', 'cuda')
pr = passkey_selection_probe(m, tok, cfg.train.seq_len, [256, 560, 768, 1024, 1536, 1792, 2000], n=50)
pr.to_csv(f'{d}/selection_probe.csv', index=False); print(pr.pivot_table(index='distance', columns='layer', values='key_block_selected').round(2).to_string())
PY
fi
