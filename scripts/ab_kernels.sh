# Whole-NSA kernel times of an older package (unpacked with `git archive REV nsa_nb | tar -x -C DIR`) and this tree,
# alternating REPEATS times, each a fresh `nsa_nb_bench kernels` process (`nsa` only; this tree's first run adds SDPA's flash
# backend): for changes near the spread of single runs. Writes OUT/{before,after}_N/.
# Usage on a GPU node: bash scripts/ab_kernels.sh DIR OUT [REPEATS=2] [LENGTHS=8192,65536] [SHAPES=paper,model125m]
set -euo pipefail
old=$1; out=$(mkdir -p "$2" && cd "$2" && pwd); n=${3:-2}; lens=${4:-8192,65536}; shapes=${5:-paper,model125m}
for i in $(seq "$n"); do
  (cd "$old" && PYTHONPATH="$PWD:${PYTHONPATH:-}" python3 -m nsa_nb.bench kernels --impls nsa --lengths "$lens" --shapes "$shapes" --out "$out/before_$i")
  impls=nsa; [ "$i" = 1 ] && impls=sdpa_flash,nsa
  python3 -m nsa_nb.bench kernels --impls "$impls" --lengths "$lens" --shapes "$shapes" --out "$out/after_$i"
done
