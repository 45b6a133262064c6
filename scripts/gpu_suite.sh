#!/usr/bin/env bash
# Everything GPU-side in one go, for a GPU node: the `#| gpu` cells of every notebook that has them, then the kernel,
# training, decode and generation benchmarks. Logs and JSON go to OUT (default runs/gpu_suite). Under an hour on one
# H100: each part has its own time limit (NB_TIMEOUT seconds per notebook, default 1500: 06c's reaches its first GPU cell
# after about 570 s on an H100 with a fresh Triton cache, most of it compiling the kernel variants of its small tests,
# `python3 scripts/time_cells.py nbs/06c_kernel_nsa.ipynb gpu`; 200 to 1,200 s per benchmark; a benchmark stopped by its limit
# keeps the rows it measured, in <name>.incomplete.json). With several GPUs visible the notebooks run side by side, one
# per GPU (each with its share of the CPU cores); the benchmarks always run one at a time, on the first GPU, after the
# tests: another process on the node slows the host side of a step and would show in their timings. On a node without
# network, put the wheels of the nbdev stack in .whl/ first: this script installs them if nbdev is missing.
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
if [[ -n ${CUDA_VISIBLE_DEVICES+set} ]]; then IFS=, read -ra gpus <<< "$CUDA_VISIBLE_DEVICES"   # the GPUs it names
else gpus=($(seq 0 $(( $(python3 -c "import torch; print(torch.cuda.device_count())" || echo 0) - 1 )))); fi  # every one
(( ${#gpus[@]} )) || { echo "no GPU visible (CUDA_VISIBLE_DEVICES='${CUDA_VISIBLE_DEVICES-}'): run this on a GPU node"; exit 1; }
trap 'kill $(jobs -p) 2> /dev/null' EXIT   # a stopped suite stops its test lanes too
if want tests; then
  nbs=($(grep -l '#| gpu' nbs/*.ipynb)); lanes=${#gpus[@]}; (( lanes > ${#nbs[@]} )) && lanes=${#nbs[@]}
  threads=$(( $(nproc) / (lanes > 0 ? lanes : 1) )); (( threads > 0 )) || threads=1
  rm -f "$OUT"/.failed_*
  for (( g = 0; g < lanes; g++ )); do   # lane g: notebooks g, g + lanes, ... one after another on GPU gpus[g]
    ( for (( i = g; i < ${#nbs[@]}; i += lanes )); do
        name=$(basename "${nbs[i]}" .ipynb)
        if CUDA_VISIBLE_DEVICES=${gpus[g]} OMP_NUM_THREADS=$threads TORCHINDUCTOR_COMPILE_THREADS=$threads \
             timeout ${NB_TIMEOUT:-1500} nbdev_test --flags gpu --n_workers 1 --path "${nbs[i]}" > "$OUT/test_$name.log" 2>&1; then echo "PASS $name"
        else echo "FAIL $name (rc $?; $OUT/test_$name.log):"; tail -20 "$OUT/test_$name.log"; touch "$OUT/.failed_$name"; fi
      done ) &
  done; wait
  ls "$OUT"/.failed_* > /dev/null 2>&1 && { rc=1; rm -f "$OUT"/.failed_*; }
fi
export CUDA_VISIBLE_DEVICES=${gpus[0]}   # the benchmarks: the first GPU, alone
# python3 -m, not the console script: on a node with the wheels in .whl/ only PYTHONPATH knows the package
if want bench; then timeout 1200 python3 -m nsa_nb.bench kernels --out "$OUT" 2>&1 | tee "$OUT/bench_kernels.log" | tail -14; fi
if want train; then timeout 600 python3 -m nsa_nb.bench train --out "$OUT" 2>&1 | tee "$OUT/bench_train.log" | tail -6; fi
if want decode; then timeout 200 python3 -m nsa_nb.bench decode --out "$OUT" 2>&1 | tee "$OUT/bench_decode.log" | tail -20; fi
if want generate; then timeout 300 python3 -m nsa_nb.bench generate --out "$OUT" 2>&1 | tee "$OUT/bench_generate.log" | tail -10; fi
exit $rc
