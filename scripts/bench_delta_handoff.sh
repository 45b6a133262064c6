# The gated sum's backward handing each branch its delta (notebooks 06a/06c), on one GPU: the 06a/06b/06c GPU tests, the
# per-kernel profile, and the 125M model's training throughput of the package before it (commit 0b53b70, unpacked into
# .pk/prev2 by `git archive 0b53b70 nsa_nb | tar -x -C .pk/prev2`) and of this tree, one after the other.
# Usage from the repo root on a GPU node (with .whl/ for the notebook tests): OUT=DIR bash scripts/bench_delta_handoff.sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD:$PWD/scripts PATH=/tmp/site/bin:$PATH
for nb in 06a_kernel_banded 06b_kernel_selection 06c_kernel_nsa; do
  nbdev_test --flags gpu --n_workers 1 --path nbs/$nb.ipynb > $OUT/nbtest_gpu_$nb.txt 2>&1; echo "$nb GPU tests rc=$?"
done
python3 scripts/profile_kernels.py 1,65536,12,2,64,model125m 1,65536,64,4,128,paper 16,2048,12,2,64,train2k 2>/dev/null > $OUT/kprof_handoff_h100.txt
(cd .pk/prev2 && PYTHONPATH=/tmp/site:$PWD python3 -m nsa_nb.bench train --lengths 2048,8192,32768 --out /tmp/tb) | tail -5
cp /tmp/tb/train.json $OUT/train_before_handoff_h100.json
python3 -m nsa_nb.bench train --lengths 2048,8192,32768 --out /tmp/ta | tail -5
cp /tmp/ta/train.json $OUT/train_after_handoff_h100.json
