"""Compiled 125M training tokens/s and peak memory for NSA's block settings against the dense model, in one process
(`bench_train` of notebook 12, 10 steps after 3 on a fresh model, 32k tokens per step): what NSA with fewer selected
blocks or a shorter window would train at, for choosing settings at short contexts (speed only: what it learns is a
training run's question). About a minute per row on one H200, most of it compiling.
Usage: python3 scripts/tuning/train_nsa_settings.py OUT.json LENGTHS [n_sel,w ...]   e.g. 2048,8192 16,512 8,256"""
import sys
from nsa_nb.bench import bench_train
from nsa_nb.config import NSAConfig
from nsa_nb.model import nsa_keys_per_query
from _common import recorder

if len(sys.argv) < 3: sys.exit(__doc__)
record, lengths = recorder(sys.argv[1]), [int(t) for t in sys.argv[2].split(',')]
quiet = lambda line: None                                                       # the recorder prints each row
for r in bench_train(lengths, ('dense',), (True,), steps=10, log=quiet): record(r)
for n_sel, w in [tuple(map(int, s.split(','))) for s in sys.argv[3:]] or [(16, 512), (8, 512), (8, 256)]:
    for r in bench_train(lengths, ('nsa',), (True,), steps=10, log=quiet, overrides=[f'nsa.n_sel={n_sel}', f'nsa.w={w}']):
        record(r | dict(n_sel=n_sel, w=w, keys_per_query=round(nsa_keys_per_query(r['seq_len'], NSAConfig(n_sel=n_sel, w=w)))))
