"""A/B of the selected branch's dq at one key head (model.n_kv_groups=1: G=12 query heads per key head) in compiled
125M training, one process: dq from the dk/dv kernel's per-slot shares against dq's own launches (the default rule takes
the launches for groups above `SelTuning.max_tile_g`); tokens/s and peak memory of `bench_train` (10 steps after 3,
fresh models, 32k tokens per step) to OUT.json, the dense model first for reference. Then it prints one layer's
kernels at 4 x 8k with the shares (`profile_kernels.py`'s table; not in OUT.json). About a minute per row on one H200.
Usage: python3 scripts/tuning/ab_group_dq.py OUT.json [LENGTHS]   (LENGTHS: 2048,8192)"""
import sys
import nsa_nb.kernels.selection as ks
from nsa_nb.bench import bench_train
from _common import recorder

if len(sys.argv) < 2: sys.exit(__doc__)
record = recorder(sys.argv[1])
lengths = [int(t) for t in (sys.argv[2] if len(sys.argv) > 2 else '2048,8192').split(',')]
quiet, rule = (lambda line: None), ks.dq_from_keys
shares = lambda q, G, n_sel, tune: q.numel() * n_sel * q.element_size() <= tune.dq_keys_bytes   # any group size
for r in bench_train(lengths, ('dense',), (True,), steps=10, log=quiet): record(r)
for name, how in (('launches', rule), ('shares', shares)):
    ks.dq_from_keys = how                                                       # sel_bwd reads the module's rule
    for r in bench_train(lengths, ('nsa',), (True,), steps=10, log=quiet, overrides=['model.n_kv_groups=1']):
        record(r | dict(dq=name, n_kv_groups=1))
import profile_kernels                                                          # runs its shapes only from __main__
profile_kernels.run(4, 8192, 12, 1, 64, 64, 'g12_8k_shares')
ks.dq_from_keys = rule
