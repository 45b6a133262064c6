"""The selected branch's launch settings (`SelTuning` fields) timed where they matter: the compiled training step of a
trained run's model on its held-out text (the `inputs: trained` rows of `nsa_nb_bench train --inputs RUN`), one
compile per length, then each setting for 3 timed steps after 2 untimed ones. A fresh model's selections are nearly
the same for every query (its scores are flat), so random tokens on a fresh model do not show what a trained model's
selections cost. Also each setting's step on the fresh model (random tokens), for reference.
Usage: python3 scripts/tuning/sweep_sel_trained_step.py OUT.json RUN [seq_len ...]   (default 65536 131072)"""
import json, sys
import torch
from nsa_nb.config import config_from_dict
from nsa_nb.bench import synthetic_train_step, time_steps, TrainedRun
from _common import sel_tuning

if len(sys.argv) < 3: sys.exit(__doc__)
out, run, lengths = sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3:]] or [65536, 131072]
grid = [dict(), dict(fwd_keys=True), dict(union_frac=0.75), dict(union_frac=1.0), dict(rows=32),
        dict(rows=32, union_frac=1.0), dict(tokens_per_program=8), dict(tokens_per_program=2)]
trained = TrainedRun(run)                                              # the run's weights, config, tokenizer
cfg, rows = config_from_dict(trained.raw_config(), ['model.attn=nsa']), []
print(torch.cuda.get_device_name(), torch.__version__, flush=True)
for T in lengths:
    for kind in ('trained', 'random'):
        own = {} if kind == 'random' else trained.step_inputs(1, T)
        step, model, _ = synthetic_train_step(cfg, T, 1, torch.device('cuda'), **own)
        for _ in range(3): step()                                          # compiles
        for tune in grid:
            with sel_tuning(**tune): ms = time_steps(step, 3, 2, graph=False)   # 2 untimed steps on the switched path
            rows.append(r := dict(seq_len=T, inputs=kind, tune=tune, step_ms=round(ms, 2), tokens_per_s=round(T / ms * 1e3)))
            print(json.dumps(r), flush=True)
        del step, model; torch.cuda.empty_cache(); torch._dynamo.reset()
json.dump(dict(device=torch.cuda.get_device_name(), torch=torch.__version__, run=run, rows=rows), open(out, 'w'), indent=1)
