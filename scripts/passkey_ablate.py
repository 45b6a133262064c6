"""Is it selection that brings the key back? Passkey accuracy of NSA models as trained, and again with the score-chosen blocks taken
away: every layer selects its forced blocks alone (nsa.n_sel = n_init + n_local), the compressed and window branches untouched.
Where accuracy beyond the window's reach falls to chance without them, the blocks that the compressed scores chose carried the key.
Usage: python scripts/passkey_ablate.py OUT LABEL=RUN_OR_WEIGHTS [...] [--dist 64,256,...] [--n 48] [--spread 32]
Each model is asked at its training seq_len, on its training filler (`passkey_text`). Writes OUT/ablate_passkey.csv.
A minute or two per model on one GPU at the defaults."""
import argparse, dataclasses
import pandas as pd, torch
from nsa_nb.attention import NSAttention
from nsa_nb.tasks.passkey import passkey_accuracy, passkey_text
from nsa_nb.checkpoint import model_from_checkpoint

ap = argparse.ArgumentParser()
ap.add_argument('out'); ap.add_argument('runs', nargs='+', help='LABEL=run directory or weights file')
ap.add_argument('--dist', default='64,128,256,384,512,768,1024,1280,1536,1792,2000')
ap.add_argument('--n', type=int, default=48); ap.add_argument('--spread', type=int, default=32)
a = ap.parse_args()
dev = 'cuda' if torch.cuda.is_available() else 'cpu'
rows = []
for label, path in (r.split('=', 1) for r in a.runs):
    model, cfg, tok = model_from_checkpoint(path, dev)
    if cfg.model.attn != 'nsa': raise SystemExit(f"{label}: model.attn={cfg.model.attn!r}; the ablation needs an NSA model")
    L = cfg.train.seq_len
    dist = sorted({d for d in map(int, a.dist.split(',')) if d + a.spread <= L})   # the distances this seq_len holds
    text, layers = passkey_text(cfg, tok, L), [m for m in model.modules() if isinstance(m, NSAttention)]
    for selection, n_sel in (('as trained', cfg.nsa.n_sel), ('forced blocks only', cfg.nsa.n_init + cfg.nsa.n_local)):
        for m in layers: m.cfg = dataclasses.replace(m.cfg, n_sel=n_sel)
        df = passkey_accuracy(model, tok, L, dist, a.n, getattr(cfg.task, 'digits', 5), spread=a.spread, text=text)
        rows.append(df.assign(model=label, selection=selection, n_sel=n_sel, w=cfg.nsa.w))   # w: as passkey_sweep's tables, for plot_passkey
        print(label, selection, f'n_sel={n_sel}', flush=True)
out = pd.concat(rows, ignore_index=True)
out.to_csv(f'{a.out}/ablate_passkey.csv', index=False)
for v in ('accuracy', 'digit_accuracy'): print(out.pivot_table(index='distance', columns=['model', 'selection'], values=v).round(3).to_string())
