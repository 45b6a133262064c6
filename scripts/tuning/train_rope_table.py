"""Compiled training of the 125M model (`nsa_nb_bench train`'s step, `synthetic_train_step`: bf16, chunked loss head,
fused AdamW, 32k tokens per step) with the model's RoPE table (notebook 05's `RopeTable`, the default) against layers
that make their angles per call, in one process on one GPU: each variant compiled once, then 10 interleaved rounds of
4 steps; prints median ms per step and tokens/s. About 2 minutes per (attention, length) on one H100.
Usage: python3 scripts/tuning/train_rope_table.py [ATTN,T ...]   (default dense,2048 nsa,2048 dense,8192 nsa,8192)"""
import sys, time, json, statistics, torch
from nsa_nb.config import named_config
from nsa_nb.bench import synthetic_train_step

shapes = [(a, int(t)) for a, t in (s.split(',') for s in sys.argv[1:])] or [
    ('dense', 2048), ('nsa', 2048), ('dense', 8192), ('nsa', 8192)]
print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}", flush=True)
for attn, T in shapes:
    steps = {}
    for variant in ('table', 'per_call'):
        cfg = named_config('m7c_125m', [f'model.attn={attn}', 'train.compile=true'])
        step, model, _ = synthetic_train_step(cfg, T, 32768 // T, torch.device('cuda'))
        if variant == 'per_call':                                   # before the first step: the graph never sees a table
            for blk in model.blocks: del blk.attn.rope_table
        for _ in range(5): step()                                  # compile, warm up
        steps[variant] = step
    ms = {v: [] for v in steps}
    for r in range(10):
        for v in (list(steps) if r % 2 == 0 else list(steps)[::-1]):
            steps[v](); torch.cuda.synchronize(); t0 = time.perf_counter()
            for _ in range(4): steps[v]()
            torch.cuda.synchronize(); ms[v].append((time.perf_counter() - t0) / 4 * 1e3)
    print(json.dumps(dict(attn=attn, T=T, **{v: dict(step_ms=round(statistics.median(x), 2),
                                                        tokens_per_s=round(32768 / statistics.median(x) * 1e3))
                                             for v, x in ms.items()})), flush=True)
    del steps; torch.cuda.empty_cache()
