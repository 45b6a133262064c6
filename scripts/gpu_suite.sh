#!/usr/bin/env bash
# Everything GPU-side in one go, for a GPU node: the `#| gpu` cells of every notebook that has them, then the kernel,
# training, decode and generation benchmarks. Logs and JSON go to OUT (default runs/gpu_suite). Under an hour on one
# H100: each part has its own time limit (10 minutes per notebook, 200 to 1,200 s per benchmark; a benchmark stopped by
# its limit keeps the rows it measured, in <name>.incomplete.json). On a node without network, put the wheels of the nbdev stack
# in .whl/ first: this script installs them if nbdev is missing.
# Usage: bash scripts/gpu_suite.sh [OUT] [tests|bench|train|decode|generate|all ...]
set -uo pipefail
OUT=${1:-runs/gpu_suite}; shift || true
WHAT=${*:-all}
mkdir -p "$OUT"
if [ -d .whl ] && ! python3 -c "import nbdev" 2>/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --target .whl/site .whl/*.whl
  export PYTHONPATH=$PWD/.whl/site:$PWD PATH=$PWD/.whl/site/bin:$PATH
fi
export PYTHONPATH=${PYTHONPATH:-$PWD} PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$OUT/gpu.txt"
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)" | tee -a "$OUT/gpu.txt"
want() { [[ " $WHAT " == *" $1 "* || " $WHAT " == *" all "* ]]; }
rc=0
if want tests; then
  for nb in $(grep -l '#| gpu' nbs/*.ipynb); do
    name=$(basename "$nb" .ipynb)
    timeout 600 nbdev_test --flags gpu --n_workers 1 --path "$nb" > "$OUT/test_$name.log" 2>&1 && echo "PASS $name" || { echo "FAIL $name"; tail -20 "$OUT/test_$name.log"; rc=1; }
  done
fi
# python3 -m, not the console script: on a node with the wheels in .whl/ only PYTHONPATH knows the package
if want bench; then timeout 1200 python3 -m nsa_nb.bench kernels --out "$OUT" 2>&1 | tee "$OUT/bench_kernels.log" | tail -14; fi
if want train; then timeout 600 python3 -m nsa_nb.bench train --out "$OUT" 2>&1 | tee "$OUT/bench_train.log" | tail -6; fi
if want decode; then timeout 200 python3 -m nsa_nb.bench decode --out "$OUT" 2>&1 | tee "$OUT/bench_decode.log" | tail -20; fi
if want generate; then timeout 300 python3 -m nsa_nb.bench generate --out "$OUT" 2>&1 | tee "$OUT/bench_generate.log" | tail -10; fi
exit $rc
