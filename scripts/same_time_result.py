"""A same-wall-time comparison's result file from its run directories (scripts/longctx_proof.sh, stage lm).

Writes PREFIX.json (nsa_nb.results format: a row per run from nsa_nb.longctx.same_time_rows, the seed margin of NSA
against dense attention, the data) and PREFIX_curves.csv (curves_frame) beside it; notebook 14 renders both.
The device and versions are the runs' own (their env.json), wherever this script runs.
With --add, earlier results of the same comparison (another seed, made on another machine of the same kind) are
pooled with these runs (nsa_nb.longctx.pool_same_time); with --add alone, the results are pooled.
Usage: python3 scripts/same_time_result.py PREFIX RUN_DIR [RUN_DIR ...] --command "how the runs were made"
           [--labels "NSA, seed 1;dense, seed 1;..."]  (default: model and seed; add a label where those repeat)
           [--add EARLIER.json ...]
"""
import argparse, json, re, sys
from pathlib import Path
import pandas as pd
from nsa_nb.longctx import curves_frame, pool_same_time, read_run, same_time_pick, same_time_rows, seed_margin
from nsa_nb.results import save_result

NAMES = {'nsa': 'NSA', 'dense': 'dense (SDPA)', 'window': 'window only'}
POOLED = ' Pooled from results made on separate machines of this kind: '

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('prefix', help='PREFIX.json and PREFIX_curves.csv are written')
    ap.add_argument('runs', nargs='*', help='run directories (train.out_dir of each run)')
    ap.add_argument('--command', default='', help='the command that made the runs')
    ap.add_argument('--labels', default='', help="labels separated by ';', one per run directory")
    ap.add_argument('--notes', default='', help='a sentence to add to the notes (where each run ran, say)')
    ap.add_argument('--add', action='append', default=[], metavar='RESULT.json',
                    help='an earlier result of this comparison (its curves CSV beside it) to pool with; repeatable')
    a = ap.parse_args()
    if not a.runs and not a.add: ap.error('give run directories, --add result files, or both')
    results = [earlier(p, ap) for p in a.add]
    if a.runs: results.insert(0, from_runs(a, ap))
    if len(results) == 1: res = results[0]
    else:
        if len({json.dumps(r.get('versions'), sort_keys=True) for r in results}) > 1:
            ap.error(f"the results were made with other versions ({[r.get('versions') for r in results]}): pool only "
                     "runs made alike")
        try: rows, cf, equal = pool_same_time(results)
        except ValueError as e: ap.error(str(e))
        src = [(r, row['run']) for r in results for row in r['rows']]                # pooled rows' own results, in order
        res = dict(results[0], rows=rows, curves=cf, **equal, command=a.command or results[0]['command'],
                   status={row['run']: r['status'].get(old) for row, (r, old) in zip(rows, src)},
                   date=max(r['date'] for r in results),
                   notes=re.sub(r"seeds \[[^]]*\]", f"seeds {sorted({row['seed'] for row in rows})}",
                                results[0]['notes'].split(POOLED)[0].strip())
                         + POOLED + '; '.join(f"{r['date']}, `{r['command']}`" for r in results) + f'. {a.notes}'.rstrip())
    rows = res['rows']
    prefix = Path(a.prefix); curves = prefix.name + '_curves.csv'; prefix.parent.mkdir(parents=True, exist_ok=True)
    res['curves'].to_csv(prefix.parent / curves, index=False)
    try: pairs = [x for s in sorted({r['seed'] for r in rows}) for x in same_time_pick(rows, s)[:2]]   # NSA, dense
    except ValueError as e: ap.error(f"{e}: give one NSA run and one or two dense runs per seed")
    margin = {k: seed_margin(pairs, key=k) for k in ('final_val_loss', 'val_loss_at_equal_tokens')}
    limit = res.get('max_minutes')   # these runs' time limit (a pooled earlier file does not say)
    for row in pairs:                # a compared run that ended its schedule before the limit gave time away: say so
        if limit and res['status'].get(row['run']) == 'done' and row['minutes'] < 0.97 * limit:
            print(f"warning: {row['run']!r} ran its whole schedule (train.steps={row['schedule_steps']}) in "
                  f"{row['minutes']} of {limit} minutes: its final loss is not a same-time figure; give it more "
                  "train.steps (its learning rate decays over them)", file=sys.stderr)
        elif row['steps'] < 0.9 * row['schedule_steps']:   # stopped by the clock with its learning rate still high
            print(f"warning: {row['run']!r} stopped at step {row['steps']} of its {row['schedule_steps']}-step schedule, "
                  f"before its learning rate decayed: for a same-time figure give it a schedule that it nearly ends in "
                  f"the time (about train.steps={round(row['steps'] * 1.02)})", file=sys.stderr)
    p = save_result(prefix.with_suffix('.json'), rows, res['command'], res['title'], res['notes'], files=[curves],
                    data=res['data'], status=res['status'], margin=margin,
                    measured_on=dict(device=res['device'], versions=res['versions']), date=res['date'],
                    seq_len=res['seq_len'], equal_tokens_M=res['equal_tokens_M'], equal_minutes=res['equal_minutes'])
    print(f"{p} and {prefix.parent / curves}:")
    for r in rows: print('  ', r)
    for k, m in margin.items(): print('  margin', m)

def earlier(path, ap) -> dict:
    "A result file written by this script, with its curves."
    p = Path(path)
    if not p.is_file(): ap.error(f"--add {path}: no such result file")
    res = json.loads(p.read_text())
    if 'equal_tokens_M' not in res or 'seq_len' not in res or not res.get('files'):
        ap.error(f"--add {path}: not a same-time result of this script")
    return dict(res, curves=pd.read_csv(p.parent / res['files'][0]))

def from_runs(a, ap) -> dict:
    "The result of run directories `a.runs`, as a dict with its curves."
    labels = [l.strip() for l in a.labels.split(';')] if a.labels else []
    if labels and len(labels) != len(a.runs): ap.error(f"--labels names {len(labels)} runs, not {len(a.runs)}")
    runs = {}
    for i, d in enumerate(a.runs):
        r = read_run(d); attn = r['config']['model']['attn']
        label = labels[i] if labels else f"{NAMES.get(attn, attn)}, seed {r['config']['train']['seed']}"
        if label in runs: ap.error(f"two runs are labelled {label!r}: give --labels")
        runs[label] = r
    try: rows, equal = same_time_rows(runs)           # also refuses runs not made alike (data, model body, batch, time)
    except ValueError as e: ap.error(str(e))
    first = next(iter(runs.values()))
    envs = [r['env'] for r in runs.values()]
    env = envs[0]
    gpus = sorted({e.get('gpu') or e.get('device', '?') for e in envs})
    on = dict(device=' / '.join(gpus), versions={k: env.get(k) for k in ('python', 'torch', 'cuda', 'triton')})
    tc, dc, mc = first['config']['train'], first['config']['data'], first['config']['model']
    data = dict(dataset=dc['dataset'], file=Path(dc.get('path', '')).name, tokenizer=dc['tokenizer'], **env.get('data', {}))
    title = (f"NSA against dense attention for the same wall time: {mc['dim']}-dim {mc['n_layers']}-layer model, "
             f"{dc['tokenizer']} vocabulary, seq_len {tc['seq_len']}, {tc.get('max_minutes')} minutes a run")
    notes = (f"nsa_nb_train with model.attn=nsa and dense, train.compile={tc.get('compile')}, {tc['batch_size']} x "
             f"{tc['seq_len']} tokens per step, {tc['precision']}, seeds {sorted({r['seed'] for r in rows})}, schedules "
             f"(train.steps) {[r['config']['train']['steps'] for r in runs.values()]}, each run on its own GPU; data "
             f"{dc['dataset']} ({data.get('train_tokens', 0) / 1e6:.1f}M training tokens, "
             f"{data.get('val_docs')} documents held out with data.split_seed={dc.get('split_seed')}, the same for "
             f"every run). tokens_per_s: median of the logged steps after the 10th; minutes: wall time of the training "
             f"loop from its first step, evaluations and checkpoints included. {a.notes}").strip()
    return dict(title=title, seq_len=tc['seq_len'], notes=notes, rows=rows, curves=curves_frame(runs), data=data,
                command=a.command,
                status={k: r['metrics'].get('status') for k, r in runs.items()}, date=env['time'][:10], **on, **equal,
                max_minutes=tc.get('max_minutes'))

if __name__ == '__main__': main()
