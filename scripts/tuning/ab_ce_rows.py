"""A/B of the loss head's per-row cross-entropy in one process: notebook 06e's Triton kernel (the logits read twice in
bf16, the gradient written over them) against the same in fp32 tensor operations (`cross_entropy_rows_torch`), on
compiled 125M training steps (configs/m7c_125m.yaml, vocabulary 50,304, batch 1), dense and NSA. The loss head is an
operator of its own, so one compiled step serves both: the kernel module the loss head looks up is switched between timings.
About 4 minutes on one H100 at the default lengths.
Usage: python3 scripts/tuning/ab_ce_rows.py OUT.json [65536,131072] [rounds]"""
import sys, torch
import nsa_nb.attention as na
from nsa_nb.config import named_config
from nsa_nb.bench import synthetic_train_step, time_steps
from _common import recorder

if len(sys.argv) < 2: sys.exit(__doc__)
record = recorder(sys.argv[1])
lengths = [int(s) for s in (sys.argv[2:3] or ['65536,131072'])[0].split(',')]
rounds = int((sys.argv[3:4] or ['2'])[0])
kernel = na.triton_kernels('loss')
assert kernel is not None, "notebook 06e's kernel does not import here: both arms would time the tensor operations"
paths = {'kernel': kernel, 'torch': None}                                  # None: the loss head takes tensor ops

for T in lengths:
    for attn in ('dense', 'nsa'):
        step, model, _ = synthetic_train_step(named_config('m7c_125m', [f'model.attn={attn}', 'train.compile=true']),
                                              T, 1, torch.device('cuda'))
        for _ in range(2): step()                                        # compile, warm up
        for r in range(rounds):
            for name in (paths if r % 2 == 0 else reversed(list(paths))):
                na.set_triton_kernels('loss', paths[name])
                torch.cuda.reset_peak_memory_stats()
                ms = time_steps(step, 3, 1, graph=False)              # one untimed step on the switched path
                record(dict(seq_len=T, attn=attn, path=name, round=r, step_ms=round(ms, 2),
                            tokens_per_s=round(T / ms * 1e3), peak_gib=round(torch.cuda.max_memory_allocated() / 2**30, 2)))
        na.set_triton_kernels('loss', kernel)
        del step, model; torch._dynamo.reset(); torch.cuda.empty_cache()
