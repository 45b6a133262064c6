# The GPU run behind bench_results/scores/ (one H100): the compressed dk/dv split, 06a GPU tests, per-kernel profile, and
# the kernel grid and training throughput of commit 86179f5 (git archive 86179f5 nsa_nb | tar -x -C .pk/prev) and of this tree, one after the other.
# Usage from the repo root on a GPU node with .whl/ and .pk/prev: OUT=DIR bash scripts/bench_session_scores.sh
set -x
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD:$PWD/scripts PATH=/tmp/site/bin:$PATH
python3 scripts/bench_cmp_split.py $OUT/cmp_split_h100.json
nbdev_test --flags gpu --n_workers 1 --path nbs/06a_kernel_banded.ipynb > $OUT/nbtest_06a_gpu.txt 2>&1; echo nbtest06a rc=$?
python3 scripts/profile_kernels.py 1,65536,12,2,64,model125m 1,65536,64,4,128,paper 16,2048,12,2,64,train2k > $OUT/kprof_after_h100.txt 2>/dev/null
(cd .pk/prev && PYTHONPATH=/tmp/site:$PWD python3 -m nsa_nb.bench kernels --lengths 16384,65536 --impls sdpa,nsa --out /tmp/kb) 
cp /tmp/kb/kernels.json $OUT/kernels_before_h100.json
python3 -m nsa_nb.bench kernels --lengths 16384,65536 --impls sdpa,nsa --out /tmp/ka
cp /tmp/ka/kernels.json $OUT/kernels_after_h100.json
(cd .pk/prev && PYTHONPATH=/tmp/site:$PWD python3 -m nsa_nb.bench train --lengths 2048,8192,32768 --out /tmp/tb)
cp /tmp/tb/train.json $OUT/train_before_h100.json
python3 -m nsa_nb.bench train --lengths 2048,8192,32768 --out /tmp/ta
cp /tmp/ta/train.json $OUT/train_after_h100.json
