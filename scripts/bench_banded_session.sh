# The GPU run behind bench_results/banded_masks/ (one H100; it ran past the 10-minute call limit in the kernel grid, so its grid and training rows are missing): 06a/06c GPU tests, the banded kernels before/after their
# loops skip the mask on whole tiles, the per-kernel profile, the 16k/64k grid, and 125M training at 2048 alternating with
# commit 6814ec8 (unpacked into .pk/prev3 by `git archive 6814ec8 nsa_nb | tar -x -C .pk/prev3`).
# Usage from the repo root on a GPU node with .whl/ and .pk/: OUT=DIR bash scripts/bench_banded_session.sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD:$PWD/scripts PATH=/tmp/site/bin:$PATH
for nb in 06a_kernel_banded 06c_kernel_nsa; do
  nbdev_test --flags gpu --n_workers 1 --path nbs/$nb.ipynb > $OUT/nbtest_gpu_$nb.txt 2>&1; echo "$nb GPU tests rc=$?"
done
python3 scripts/bench_banded_masks.py $OUT/banded_masks_h100.json
python3 scripts/profile_kernels.py 1,65536,12,2,64,model125m 1,65536,64,4,128,paper 16,2048,12,2,64,train2k 2>/dev/null > $OUT/kprof_masks_h100.txt
python3 -m nsa_nb.bench kernels --lengths 16384,65536 --impls sdpa,nsa --out /tmp/ka | tail -10
cp /tmp/ka/kernels.json $OUT/kernels_masks_h100.json
bash scripts/train_interleaved.sh .pk/prev3 2048 3 30 | tee $OUT/train2k_interleaved_masks_h100.txt
