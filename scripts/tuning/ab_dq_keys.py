"""A/B of the selected branch's dq in compiled 125M training, one process: from the dk/dv kernel's per-slot shares (a
transient [B, H, T, n_sel, G, K] tensor in each layer's backward, 0.75 GiB at 32k tokens; the default while they fit
`SelTuning.dq_keys_bytes` and G is at most `SelTuning.max_tile_g`) against dq's own launches (no shares, the default for
larger groups); tokens/s and peak memory of `bench_train` (10 steps after 3, fresh models, 32k tokens per step) to
OUT.json, the dense model (as shipped) first for reference. OVERRIDES change the NSA models (e.g. model.n_kv_groups=1:
G=12). Then it prints one layer's kernels at 4 x 8k of the NSA model's head shape each way (`profile_kernels.py`'s
tables; not in OUT.json). About a minute per row on one H200.
Usage: python3 scripts/tuning/ab_dq_keys.py OUT.json [LENGTHS] [OVERRIDES ...]   (LENGTHS: 2048,8192)"""
import sys
import nsa_nb.kernels.selection as ks
from nsa_nb.bench import bench_train
from nsa_nb.config import named_config
from _common import recorder
import profile_kernels                                                          # runs its shapes only from __main__

if len(sys.argv) < 2: sys.exit(__doc__)
lengths = [int(t) for t in (sys.argv[2] if len(sys.argv) > 2 else '2048,8192').split(',')]
over = sys.argv[3:]
mc = named_config('m7c_125m', over).model                                      # refuses a bad override before any step
record = recorder(sys.argv[1])
quiet, rule = (lambda line: None), ks.dq_from_keys
ways = (('shares', lambda q, G, n_sel, tune: q.numel() * n_sel * q.element_size() <= tune.dq_keys_bytes),
        ('launches', lambda *a: False))
for r in bench_train(lengths, ('dense',), (True,), steps=10, log=quiet): record(r)
for name, how in ways:
    ks.dq_from_keys = how                                                       # sel_bwd reads the module's rule
    for r in bench_train(lengths, ('nsa',), (True,), steps=10, log=quiet, overrides=over):
        record(r | dict(dq=name, overrides=over))
for name, how in ways:
    ks.dq_from_keys = how
    profile_kernels.run(4, 8192, mc.n_heads, mc.n_kv_groups, mc.d_k, mc.d_v, f'dq {name}')
ks.dq_from_keys = rule
