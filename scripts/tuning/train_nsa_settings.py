"""Compiled 125M training tokens/s and peak memory for NSA's settings against the dense model, in one process
(`bench_train` of notebook 12, 10 steps after 3 on a fresh model, 32k tokens per step): what NSA with fewer selected
blocks, a shorter window or fewer key heads (larger groups: each K/V block loaded serves more query heads) would train
at, for choosing settings at short contexts (speed only: what it learns is a training run's question). About a minute
per row on one H200, most of it compiling.
Usage: python3 scripts/tuning/train_nsa_settings.py OUT.json LENGTHS [SETTING ...]   e.g. 2048,8192 16,512 8,256
  SETTING: n_sel,w (8,256), or overrides joined by commas (nsa.n_sel=8,nsa.w=256 or model.n_kv_groups=1);
  default: 16,512 8,512 8,256"""
import re, sys
from nsa_nb.bench import bench_train
from nsa_nb.config import named_config
from nsa_nb.model import nsa_keys_per_query
from _common import recorder

def overrides(setting:str) -> list[str]:
    "A SETTING as `section.field=value` overrides."
    if m := re.fullmatch(r'(\d+),(\d+)', setting): return [f'nsa.n_sel={m[1]}', f'nsa.w={m[2]}']
    return setting.split(',')

if len(sys.argv) < 3: sys.exit(__doc__)
record, lengths = recorder(sys.argv[1]), [int(t) for t in sys.argv[2].split(',')]
quiet = lambda line: None                                                       # the recorder prints each row
settings = [overrides(s) for s in sys.argv[3:] or ['16,512', '8,512', '8,256']]
cfgs = [named_config('m7c_125m', ov) for ov in settings]                        # refuses a bad override before any step
for r in bench_train(lengths, ('dense',), (True,), steps=10, log=quiet): record(r)
for ov, cfg in zip(settings, cfgs):
    for r in bench_train(lengths, ('nsa',), (True,), steps=10, log=quiet, overrides=ov):
        record(r | dict(overrides=ov, n_sel=cfg.nsa.n_sel, w=cfg.nsa.w, n_kv_groups=cfg.model.n_kv_groups,
                        keys_per_query=round(nsa_keys_per_query(r['seq_len'], cfg.nsa))))
