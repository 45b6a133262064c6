"""The compiled NSA training step at batch 1 (a fresh 125M model on random tokens, or `--inputs`) with the selected
branch's dq from the dk/dv kernel's per-slot shares in one pass (`SelTuning.dq_keys_bytes` above the shares' size), or
over query chunks whose shares fit the default 2 GiB (`dq_keys_chunked`), against dq's own launches (`dq_keys_bytes=0`)
and the default rule; one compile per length, then each way for 3 timed steps after 2 untimed ones, with its peak
memory. `--settings` as `nsa_nb_bench train`'s (e.g. train.gradient_checkpointing=true at 256k on 80 GB). `--inputs
RUN`: a trained run's own model on its held-out text, as `nsa_nb_bench train --inputs RUN` (a fresh model's flat scores
select nearly the same blocks for every query; a trained model's do not; the text bounds the length). About 2 minutes
a length on one H100.
Usage: python3 scripts/tuning/ab_dq_keys_step.py OUT.json [seq_len ...] [--settings a=b,c=d] [--inputs RUN]
                                                  [--ways launches,keys,chunked,default]"""
import argparse
import torch
from nsa_nb.config import named_config, config_from_dict
from nsa_nb.bench import synthetic_train_step, time_steps, TrainedRun
from _common import recorder, sel_tuning, DQ_WAYS

ap = argparse.ArgumentParser(usage=__doc__)
ap.add_argument('out'); ap.add_argument('lengths', nargs='*', type=int, default=[131072])   # seq_len, default 131072
ap.add_argument('--settings', default='')
ap.add_argument('--inputs', default=None)
ap.add_argument('--ways', default='launches,keys,chunked,default')   # a subset, comma-separated
args = ap.parse_args()
WAYS = DQ_WAYS | dict(default=dict())
if unknown := set(args.ways.split(',')) - set(WAYS): ap.error(f"--ways {sorted(unknown)}: choose from {','.join(WAYS)}")
record, lengths = recorder(args.out), args.lengths
trained = TrainedRun(args.inputs) if args.inputs else None
raw = trained.raw_config() if trained else named_config('m7c_125m').to_dict()
cfg = config_from_dict(raw, ['model.attn=nsa'] + [s_ for s_ in args.settings.split(',') if s_])
for T in lengths:
    own = trained.step_inputs(1, T) if trained else {}
    step, model, _ = synthetic_train_step(cfg, T, 1, torch.device('cuda'), **own)
    for _ in range(2): step()                                                    # compiles
    for way in args.ways.split(','):
        tune = WAYS[way]
        torch.cuda.reset_peak_memory_stats()
        with sel_tuning(**tune): ms = time_steps(step, 3, 2, graph=False)     # 2 untimed steps on the switched path
        record(dict(seq_len=T, inputs='trained' if trained else 'random', dq=way, tune=tune, settings=args.settings,
                    step_ms=round(ms, 2), tokens_per_s=round(T / ms * 1e3),
                    peak_gib=round(torch.cuda.max_memory_allocated() / 2 ** 30, 2)))
    del step, model; torch.cuda.empty_cache(); torch._dynamo.reset()
