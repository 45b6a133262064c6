"""A/B of the selected branch's dq in compiled 125M training, one process: from the dk/dv kernel's per-slot shares (the
default while they fit `SelTuning.dq_keys_bytes`: a transient [B, H, T, n_sel, G, K] tensor in each layer's backward,
0.75 GiB at 32k tokens) against dq's own launches (no shares); tokens/s and peak memory of `bench_train` (10 steps after
3, fresh models, 32k tokens per step), the dense model first for reference. About a minute per row on one H200.
Usage: python3 scripts/tuning/ab_dq_keys.py OUT.json [LENGTHS]   (LENGTHS: 2048,8192)"""
import sys
import nsa_nb.kernels.selection as ks
from nsa_nb.bench import bench_train
from _common import recorder

if len(sys.argv) < 2: sys.exit(__doc__)
record = recorder(sys.argv[1])
lengths = [int(t) for t in (sys.argv[2] if len(sys.argv) > 2 else '2048,8192').split(',')]
quiet, from_keys = (lambda line: None), ks.dq_from_keys
for r in bench_train(lengths, ('dense',), (True,), steps=10, log=quiet): record(r)
for name, rule in (('shares', from_keys), ('launches', lambda *a: False)):
    ks.dq_from_keys = rule                                                      # sel_bwd reads the module's rule
    for r in bench_train(lengths, ('nsa',), (True,), steps=10, log=quiet): record(r | dict(dq=name))
ks.dq_from_keys = from_keys
