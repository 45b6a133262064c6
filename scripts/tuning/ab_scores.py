"""Selection scores + top-n on the GPU, A/B in one process: the package's `select_blocks_triton` against another version
of notebook 06c's module, each with the separate top-n kernel and with top-n inside the scores walk
(`ScoresTuning(fused_topn=...)`). GPU time (CUDA events, median of 5 after 2) and, per variant, the fraction of rows that
pick the same blocks as the base with the separate kernel.
Usage on a GPU node: python3 scripts/tuning/ab_scores.py OUT.json [--base FILE] [--tunes ROWS:WARPS[:STEP],...] [B,T,HQ,H,K[,n_sel] ...]
(random bf16 q, k; the paper's NSA settings, n_sel 16 unless given). FILE: the base module, e.g. made here by
`git show main:nsa_nb/kernels/nsa.py > scripts/tuning/base_nsa.py`; without it, the package's two top-n paths alone.
--tunes: the package's `ScoresTuning(rows, warps, step)` choices to time (default: its defaults)."""
import argparse, math
import torch
import nsa_nb.kernels.nsa as kn
from nsa_nb.kernels.banded import compressed_attention_triton
from nsa_nb.compression import Compressor
from nsa_nb.config import NSAConfig
from _common import load_module, recorder, timeit

SHAPES = ['1,8192,64,4,128', '1,16384,64,4,128', '1,65536,64,4,128', '1,65536,12,2,64', '1,65536,12,2,64,32',
          '1,262144,12,2,64', '1,1048576,12,2,64', '1,1179648,12,2,64']   # the last: past MAX_BLOCKS, the walk alone

if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('out'); ap.add_argument('--base'); ap.add_argument('--tunes', default=None)
    ap.add_argument('shapes', nargs='*')
    a = ap.parse_intermixed_args()   # shapes before or after the options
    record, base = recorder(a.out), load_module(a.base) if a.base else None
    tunes = [tuple(map(int, t.split(':'))) for t in a.tunes.split(',')] if a.tunes else [None]
    for shape in a.shapes or SHAPES:
        B, T, HQ, H, K, *n = map(int, shape.split(','))
        cfg = NSAConfig(n_sel=n[0] if n else 16)
        torch.manual_seed(0)
        q, k = (torch.randn(B, T, h, K, device='cuda', dtype=torch.bfloat16) for h in (HQ, H))
        kc = Compressor(cfg.l, cfg.d, K).cuda().to(torch.bfloat16)(k)
        _, lse = compressed_attention_triton(q, kc, kc, cfg.l, cfg.d)
        row, picks = dict(B=B, T=T, HQ=HQ, H=H, K=K, n_sel=cfg.n_sel), {}
        variants = [('base', base, {})] if base else []
        variants += [('new' + ('_' + 'x'.join(map(str, t)) if t else ''), kn, dict(zip(('rows', 'warps', 'step'), t or ())))
                     for t in tunes]
        for name, mod, kw in variants:
            for fused in (False, True):
                if not fused and math.ceil(T / cfg.l_sel) > kn.MAX_BLOCKS: continue
                tune, key = mod.ScoresTuning(fused_topn=fused, **kw), f"{name}_{'fused' if fused else 'sep'}"
                f = lambda: mod.select_blocks_triton(q, kc, lse, cfg, tune=tune)
                try: row[f'{key}_ms'], picks[key] = round(timeit(f), 3), f()
                except Exception as e: row[key] = f"{type(e).__name__}: {str(e)[:100]}"
        ref = next(iter(picks.values()), None)
        for key, p in picks.items():
            if p is not ref: row[f'{key}_same'] = round((p == ref).all(-1).float().mean().item(), 4)
        record(row)
        del q, k, kc, lse, picks, ref
        torch.cuda.empty_cache()
