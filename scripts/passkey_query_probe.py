"""Per answer query of a passkey model: is each answer digit right, which layer's selection holds the block of the key digit that
query must copy, and how much weight the layer's gate gives the selected branch. Runs the reference path: under a minute
on a CPU for the small passkey models.
Usage: python scripts/passkey_query_probe.py WEIGHTS.pt DIST[,DIST...] [N]
WEIGHTS.pt: a checkpoint or a {'model', 'config'} file as the passkey grid writes (bf16 weights are fine)."""
import sys, torch
from nsa_nb.attention import NSAttention
from nsa_nb.data import get_tokenizer
from nsa_nb.tasks.passkey import PasskeyChunks
from nsa_nb.checkpoint import model_from_checkpoint

path, dists, n = sys.argv[1], [int(x) for x in sys.argv[2].split(',')], int(sys.argv[3]) if len(sys.argv) > 3 else 4
m, cfg, _ = model_from_checkpoint(path, 'cpu')
m.float()
for L in m.modules():
    if isinstance(L, NSAttention): L.backend = 'reference'
tok, T, digits = get_tokenizer(cfg.data.tokenizer), cfg.train.seq_len, getattr(cfg.task, 'digits', 5)
layers = [x for x in m.modules() if isinstance(x, NSAttention)]
for D in dists:
    pk = PasskeyChunks(T, tok, D, digits, 2_000_003)
    c = torch.stack([pk[i] for i in range(n)])
    with torch.no_grad(): hit = (m(c[:, :-1])[:, -digits:].argmax(-1) == c[:, 1:][:, -digits:]).float().mean(0)
    first = T + 1 - digits - D                                              # x position of the key's first digit
    tgt = (first + torch.arange(digits)) // cfg.nsa.l_sel                    # block of the digit each answer query copies
    print(f"distance {D}: key digits at x {first}..{first + digits - 1}, blocks {tgt.tolist()}; right per answer digit {[round(x, 2) for x in hit.tolist()]}")
    for i, L in enumerate(layers):
        sel = (L._last['idx'][:, -digits:] == tgt[None, :, None, None]).any(-1).float().mean((0, 2))   # [digits]
        g = L._last['gates'][:, -digits:, :, 1].float().mean((0, 2))                                   # selected-branch gate
        print(f"  layer {i}: digit's block selected {[round(x, 2) for x in sel.tolist()]}  selected-branch gate {[round(x, 2) for x in g.tolist()]}")
