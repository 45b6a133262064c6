"""Training tokens/s of the 125M model (`nsa_nb_bench train`'s step, `train_throughput`: bf16, chunked loss head, fused
AdamW, 32k tokens per step, 8 timed steps after 3) compiled with Inductor's default mode and with `reduce-overhead`
(CUDA graphs: the step's kernels replayed without the host), NSA and dense, in one process on one GPU. The gain of the
second is the share of the step that waits on the host. About 4 minutes on one H100.
Usage: python3 scripts/tuning/train_compile_modes.py [ATTN,T ...]   (default nsa,2048 dense,2048)"""
import sys, json, functools, torch
from nsa_nb.config import named_config
from nsa_nb.bench import train_throughput

shapes = [(a, int(t)) for a, t in (s.split(',') for s in sys.argv[1:])] or [('nsa', 2048), ('dense', 2048)]
compile_default = torch.compile
for mode in ('default', 'reduce-overhead'):
    torch.compile = compile_default if mode == 'default' else functools.partial(compile_default, mode=mode)   # what train_throughput calls
    for attn, T in shapes:
        torch._dynamo.reset()
        cfg = named_config('m7c_125m', [f'model.attn={attn}', 'train.compile=true'])
        try: r = train_throughput(cfg, seq_len=T, batch_size=32768 // T, steps=8)
        except Exception as e: r = dict(error=f"{type(e).__name__}: {str(e)[:300]}")
        print(json.dumps(dict(mode=mode, attn=attn, T=T, **{k: r.get(k) for k in ('tokens_per_s', 'step_ms', 'error')})), flush=True)
        torch.cuda.empty_cache()
torch.compile = compile_default
