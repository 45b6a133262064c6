# 125M training tokens/s at one seq_len, an older package (unpacked with `git archive REV nsa_nb | tar -x -C DIR`) and this
# tree alternating REPEATS times, each a fresh process of STEPS timed steps: for changes smaller than the spread of single
# `nsa_nb_bench train` runs. Usage on a GPU node: bash scripts/train_interleaved.sh DIR [SEQ_LEN=2048] [REPEATS=3] [STEPS=30]
set -euo pipefail
old=$1; T=${2:-2048}; n=${3:-3}; steps=${4:-30}
run='import sys; from nsa_nb.bench import m7c_125m; from nsa_nb.train import train_throughput
T, steps = int(sys.argv[2]), int(sys.argv[3])
r = train_throughput(m7c_125m("nsa"), seq_len=T, batch_size=max(1, 32768 // T), steps=steps)
print(sys.argv[1], round(r["tokens_per_s"]), round(r["step_ms"], 2), flush=True)'
for i in $(seq "$n"); do
  (cd "$old" && PYTHONPATH="$PWD:${PYTHONPATH:-}" python3 -c "$run" before "$T" "$steps")
  python3 -c "$run" after "$T" "$steps"
done
