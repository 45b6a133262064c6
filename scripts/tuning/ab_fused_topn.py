"""Selection scores + top-n on the GPU two ways in one process: top-n merged into the scores walk
(`ScoresTuning(fused_topn=True)`; the default past MAX_BLOCKS blocks a row) against the scores kernel writing a buffer that the top-n kernel ranks
(`fused_topn=False`); GPU time (CUDA events, median of 5 after 2) and the fraction of rows that pick the same blocks.
Usage on a GPU node: python3 scripts/tuning/ab_fused_topn.py OUT.json [B,T,HQ,H,K[,n_sel] ...]  (random bf16 q, k; the
paper's NSA settings, n_sel 16 unless given)."""
import sys, math
import torch
import nsa_nb.kernels.nsa as kn
from nsa_nb.kernels.banded import compressed_attention_triton
from nsa_nb.compression import Compressor
from nsa_nb.config import NSAConfig
from _common import recorder, timeit

SHAPES = ['1,8192,64,4,128', '1,16384,64,4,128', '1,65536,12,2,64', '1,65536,12,2,64,32', '1,262144,12,2,64',
          '1,1048576,12,2,64', '1,1179648,12,2,64']   # the last: past MAX_BLOCKS, the walk alone

if __name__ == '__main__':
    record = recorder(sys.argv[1])
    for shape in sys.argv[2:] or SHAPES:
        B, T, HQ, H, K, *n = map(int, shape.split(','))
        cfg = NSAConfig(n_sel=n[0] if n else 16)
        torch.manual_seed(0)
        q, k = (torch.randn(B, T, h, K, device='cuda', dtype=torch.bfloat16) for h in (HQ, H))
        kc = Compressor(cfg.l, cfg.d, K).cuda().to(torch.bfloat16)(k)
        _, lse = compressed_attention_triton(q, kc, kc, cfg.l, cfg.d)
        row = dict(B=B, T=T, HQ=HQ, H=H, K=K, n_sel=cfg.n_sel)
        picks = {}
        for name, tune in (('fused', kn.ScoresTuning(fused_topn=True)), ('separate', kn.ScoresTuning(fused_topn=False))):
            if name == 'separate' and math.ceil(T / cfg.l_sel) > kn.MAX_BLOCKS: continue
            row[f'{name}_ms'] = round(timeit(lambda: kn.select_blocks_triton(q, kc, lse, cfg, tune=tune)), 3)
            picks[name] = kn.select_blocks_triton(q, kc, lse, cfg, tune=tune)
        if len(picks) == 2:
            row['same_rows'] = (picks['fused'] == picks['separate']).all(-1).float().mean().item()
            row['speedup'] = round(row['separate_ms'] / row['fused_ms'], 3)
        record(row)
        del q, k, kc, lse, picks
        torch.cuda.empty_cache()
