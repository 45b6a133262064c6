#!/usr/bin/env bash
# Everything GPU-side in one go, for a GPU node (or the lent device): GPU notebook tests, kernel, training and
# decode benchmarks. Logs and JSON go to OUT (default runs/gpu_suite). On an offline node, bring the nbdev stack as
# wheels first (bash ../shared/offline-wheels.sh fla-core==0.6.0 fills .whl/; this script installs them if present).
# Usage: bash scripts/gpu_suite.sh [OUT] [tests|bench|train|decode|all ...]
set -uo pipefail
OUT=${1:-runs/gpu_suite}; shift || true
WHAT=${*:-all}
mkdir -p "$OUT"
if [ -d .whl ] && ! python3 -c "import nbdev" 2>/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
  export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH
fi
export PYTHONPATH=${PYTHONPATH:-$PWD} PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$OUT/gpu.txt"
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)" | tee -a "$OUT/gpu.txt"
want() { [[ " $WHAT " == *" $1 "* || " $WHAT " == *" all "* ]]; }
rc=0
if want tests; then
  for nb in nbs/06*.ipynb nbs/07*.ipynb nbs/11*.ipynb; do
    [ -f "$nb" ] || continue
    name=$(basename "$nb" .ipynb)
    timeout 300 nbdev_test --flags gpu --n_workers 1 --path "$nb" > "$OUT/test_$name.log" 2>&1 && echo "PASS $name" || { echo "FAIL $name"; tail -20 "$OUT/test_$name.log"; rc=1; }
  done
fi
if want bench; then timeout 400 python3 -c "from nsa_nb.bench import nsa_nb_bench; nsa_nb_bench.__wrapped__('kernels', out='$OUT')" 2>&1 | tee "$OUT/bench_kernels.log" | tail -14; fi
if want train; then timeout 300 python3 -c "from nsa_nb.bench import nsa_nb_bench; nsa_nb_bench.__wrapped__('train', out='$OUT', lengths='2048,8192,32768')" 2>&1 | tee "$OUT/bench_train.log" | tail -6; fi
if want decode; then timeout 200 python3 -c "from nsa_nb.decode import bench_decode; bench_decode(out='$OUT')" 2>&1 | tee "$OUT/bench_decode.log" | tail -20; fi
exit $rc
