"""Compiled 125M training tokens/s and peak memory for NSA's block settings against the dense model, in one process
(`train_throughput`, 10 steps after 3 on a fresh model, 32k tokens per step): what NSA with fewer selected blocks or a
shorter window would train at, for choosing settings at short contexts (speed only: what it learns is a training run's
question). About a minute per row on one H200, most of it compiling.
Usage: python3 scripts/tuning/train_nsa_settings.py OUT.json LENGTHS [n_sel,w ...]   e.g. 2048,8192 16,512 8,256"""
import sys, torch
from nsa_nb.config import named_config
from nsa_nb.model import nsa_keys_per_query
from nsa_nb.train import train_throughput
from _common import recorder

if len(sys.argv) < 3: sys.exit(__doc__)
record, lengths = recorder(sys.argv[1]), [int(t) for t in sys.argv[2].split(',')]
settings = [tuple(map(int, s.split(','))) for s in sys.argv[3:]] or [(16, 512), (8, 512), (8, 256)]
for T in lengths:
    for attn, n_sel, w in [('dense', None, None)] + [('nsa', n, w) for n, w in settings]:
        over = [f'model.attn={attn}', 'train.compile=true'] + ([f'nsa.n_sel={n_sel}', f'nsa.w={w}'] if n_sel else [])
        c = named_config('m7c_125m', over)
        torch._dynamo.reset()
        r = train_throughput(c, T, 32768 // T, steps=10, device='cuda')
        record(dict(T=T, attn=attn, n_sel=n_sel, w=w, tokens_per_s=round(r['tokens_per_s']), step_ms=round(r['step_ms'], 2),
                    peak_gib=round(r['peak_mem_gib'], 2), graphs=r['graphs'],
                    keys_per_query=round(nsa_keys_per_query(T, c.nsa)) if n_sel else None))
        torch.cuda.empty_cache()
