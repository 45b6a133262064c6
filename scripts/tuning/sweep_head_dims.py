"""The backward's launches at head dims above 128 (notebooks 06a and 06b): per-kernel GPU time of one NSA
forward+backward at the paper's heads with K=V=128, K=192 V=128 and K=V=256, then the banded backward's tiles
(`BandedTuning.bwd`: BM rows, BN keys, warps, stages) and the selected dk/dv launch (`SelTuning.dkdv`: rows per step,
warps, stages) swept one at a time, the other at its rule; each setting timed as NSA's whole forward+backward
(`time_impl`, bf16, random inputs, B=1). About 6 minutes on one H100, most of it compiling.
Usage: python3 scripts/tuning/sweep_head_dims.py OUT.json [T]   (T: 16384)"""
import sys, torch
import nsa_nb.kernels.banded as kb, nsa_nb.kernels.selection as ks
from nsa_nb.bench import time_impl, _inputs, nsa_full
from nsa_nb.config import NSAConfig
from _common import recorder, kernel_times

if len(sys.argv) < 2: sys.exit(__doc__)
record, cfg = recorder(sys.argv[1]), NSAConfig()
T = int(sys.argv[2]) if len(sys.argv) > 2 else 16384
shapes = {'k128': (128, 128), 'k192': (192, 128), 'k256': (256, 256)}

def kernel_ms(K, V):
    "ms per kernel name of one forward+backward (torch.profiler, 3 steps after 3)."
    q, k, v, g = _inputs(1, T, 64, 4, K, V, torch.bfloat16, 'bthd')
    o = nsa_full(q, k, v, g, cfg); do = torch.randn_like(o); del o
    step = lambda: torch.autograd.grad(nsa_full(q, k, v, g, cfg), [q, k, v, g], do)
    return {k_: ms for k_, (ms, _) in kernel_times(step).items()}

for tag, (K, V) in shapes.items():
    rows = kernel_ms(K, V)
    print(f"== {tag} K={K} V={V} T={T}: {sum(rows.values()):.2f} ms of kernels", flush=True)
    for k_, t in sorted(rows.items(), key=lambda x: -x[1])[:10]: print(f"  {t:8.3f} {k_[:80]}", flush=True)

def timed(tag, what, c):
    K, V = shapes[tag]
    try: ms = round(time_impl('nsa', 1, T, 64, 4, K, V, cfg, 'fwdbwd')[0], 3)
    except Exception as e: ms = f"{type(e).__name__}: {str(e)[:80]}"      # e.g. a tile past shared memory
    record(dict(shape=tag, K=K, V=V, T=T, what=what, setting=c, ms=ms)); torch.cuda.empty_cache()

rule_bwd, rule_dkdv = kb._bwd_tiles, ks._dkdv_launch
for tag in ('k192', 'k256'):
    timed(tag, 'rules', None)
    for c in [(64, 64, 4, 1), (64, 64, 8, 1), (64, 32, 4, 1), (64, 32, 4, 2), (64, 32, 8, 1), (64, 32, 8, 2), (32, 64, 4, 1),
              (32, 32, 4, 2), (64, 64, 8, 2), (128, 32, 8, 1), (32, 64, 4, 2)]:          # (BM, BN, warps, stages)
        kb._bwd_tiles = lambda G, K_, V_, tune=None, c=c: kb._pad_tiles(G, K_, V_, *c)
        timed(tag, 'banded_bwd', c)
    kb._bwd_tiles = rule_bwd
    for c in [(64, 4, 2), (64, 8, 2), (64, 8, 1), (64, 4, 1), (32, 4, 2), (32, 4, 1), (32, 8, 1), (16, 4, 2), (128, 8, 1),
              (32, 2, 2), (16, 2, 2)]:                                                    # (rows per step, warps, stages)
        ks._dkdv_launch = lambda BK, BV, tune, c=c: dict(zip(('BR', 'num_warps', 'num_stages'), c))
        timed(tag, 'sel_dkdv', c)
    ks._dkdv_launch = rule_dkdv
