"""How many keys the selected and window branches share, per query, on the blocks that random q, k select (the kernel
benchmark's inputs), at the 125M model's head shape and the default NSAConfig: the selected keys, the window's, their
overlap and union, and the same in whole selection blocks (the unit a block kernel computes). CPU or GPU, a minute.
Usage: python3 scripts/tuning/overlap_keys.py [T ...]   (default 2048 8192)"""
import sys, torch
from nsa_nb.config import NSAConfig
from nsa_nb.compression import Compressor
from nsa_nb.selection import select_blocks
from nsa_nb.attention import selected_key_counts
from nsa_nb.model import window_keys_per_query

cfg, dev = NSAConfig(), 'cuda' if torch.cuda.is_available() else 'cpu'
for T in [int(a) for a in sys.argv[1:]] or [2048, 8192]:
    torch.manual_seed(0)
    q, k = torch.randn(1, T, 12, 64, device=dev), torch.randn(1, T, 2, 64, device=dev)
    idx = select_blocks(q, Compressor(cfg.l, cfg.d, 64).to(dev)(k), cfg)                   # [1, T, H, n_sel]
    t = torch.arange(T, device=dev)[None, :, None, None]
    lo, hi = idx * cfg.l_sel, torch.minimum(idx * cfg.l_sel + cfg.l_sel - 1, t)          # a slot's keys lo..hi
    used = (idx >= 0) & (hi >= lo)
    w_lo = (t - cfg.w + 1).clamp(min=0)                                                    # the window's first key
    sel = selected_key_counts(idx, cfg.l_sel).float()                                     # [1, T, H]
    both = torch.where(used, (hi - torch.maximum(lo, w_lo) + 1).clamp(min=0), 0).sum(-1).float()
    win = torch.tensor(window_keys_per_query(T, cfg.w))                                   # the mean over t < T
    # whole blocks: the window's blocks that no slot of the query holds
    w_blocks = (t[..., 0] // cfg.l_sel - w_lo[..., 0] // cfg.l_sel + 1).float()          # [1, T, 1]
    inside = (used & (idx >= w_lo // cfg.l_sel)).sum(-1).float()                          # selected blocks in the window
    m = lambda x: round(x.mean().item(), 1)
    print(f"T={T}: keys per query: selected {m(sel)}, window {m(win)}, both {m(both)}, union {m(sel + win - both)}, "
          f"separately {m(sel + win)}; blocks per query: selected {m(used.sum(-1).float())}, window {m(w_blocks)}, "
          f"selected inside the window {m(inside)}, window-only {m(w_blocks - inside)}", flush=True)
