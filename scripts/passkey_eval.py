"""Passkey accuracy against distance for several models, the selection probe of the NSA ones, and (optionally) their weights alone
(bf16, with config): the evaluation step of scripts/longctx_proof.sh (passkey_ft) and scripts/passkey_grid.sh.
Usage: python scripts/passkey_eval.py OUT LABEL=RUN_OR_WEIGHTS [...] [--dist 64,128,...] [--n 100] [--spread 0] [--prefix ''] [--weights]
Each model is asked on the filler it trained with: filler sentences, or its validation text (keys in text: `passkey_text`).
Writes OUT/{prefix}passkey.csv and OUT/{prefix}probe_{LABEL}.csv (NSA models; distances from the third on, n/2 samples each);
with --weights, OUT/w_{LABEL}.pt for NSA runs. LABEL must be a file-name-safe word. A minute or two per model on one GPU
at the defaults."""
import argparse
from nsa_nb.tasks.passkey import passkey_sweep, passkey_selection_probe
from nsa_nb.checkpoint import export_weights

ap = argparse.ArgumentParser()
ap.add_argument('out'); ap.add_argument('runs', nargs='+', help='LABEL=run directory or weights file')
ap.add_argument('--dist', default='64,128,256,384,480,560,640,768,1024,1280,1536,1792,2000')
ap.add_argument('--n', type=int, default=100); ap.add_argument('--spread', type=int, default=0)
ap.add_argument('--prefix', default=''); ap.add_argument('--weights', action='store_true')
a = ap.parse_args()
runs, dist = dict(r.split('=', 1) for r in a.runs), [int(x) for x in a.dist.split(',')]
def probe(label, m, cfg, tok, text):
    "The selection probe of an NSA run (and its weights), while the sweep has its model loaded."
    if cfg.model.attn != 'nsa': return
    pr = passkey_selection_probe(m, tok, cfg.train.seq_len, dist[2:], n=max(1, a.n // 2), spread=a.spread, text=text)
    pr.to_csv(f'{a.out}/{a.prefix}probe_{label}.csv', index=False)
    print(label); print(pr.pivot_table(index='distance', columns='layer', values='key_block_selected').round(2).to_string())
    if a.weights: print('weights ->', export_weights(runs[label], f'{a.out}/w_{label}.pt'))

df = passkey_sweep(runs, dist, n=a.n, spread=a.spread, then=probe)
df.to_csv(f'{a.out}/{a.prefix}passkey.csv', index=False)
for v in ('accuracy', 'digit_accuracy'): print(df.pivot_table(index='distance', columns='model', values=v, sort=False).round(3).to_string())
