"""The selected attention's per-tile choice (stream the tile's union of blocks, or token by token) swept over `UNION_FRAC`,
and the one-token launch's `TOKENS_PER_PROGRAM`, against the kernels of an older commit, in one run on one GPU, bf16.
On three kinds of selections: random q, k at the 125M shape (what `nsa_nb_bench kernels` feeds: neighbours share few blocks),
the same at the paper's shape (G=16: one token per program, the same kernel as before), and a trained
byte-level model's on real text (notebook 14: neighbours share most blocks). Times the forward kernel alone (tiles made
beforehand) and the whole `selected_attention_triton` forward+backward; records the share of tiles that stream their union.
Take the old module and the trained model first (on a machine with the history), then carry them to the GPU node:
  mkdir -p .pk && git show REV:nsa_nb/kernels/selection.py > .pk/selection_head.py     (and .pk/w_text_nsa_avg.pt)
  python3 scripts/sweep_sel_union.py OUT.json [FRAC:TPP ...]      (default: a grid of both)"""
import sys
import torch, triton
import nsa_nb.kernels.selection as sel
from nsa_nb.config import NSAConfig
from _versions import load_old, random_selection, text_selections, recorder

if len(sys.argv) < 2: sys.exit(__doc__)
configs = [(float(f), int(t)) for f, t in (a.split(':') for a in sys.argv[2:])] or \
          [(0., 1), (1., 1)] + [(f, t) for f in (0.375, 0.5, 0.625) for t in (1, 4, 16)]
before = load_old('kernels.selection_head', '.pk/selection_head.py')
bench = lambda f: triton.testing.do_bench(f, warmup=10, rep=100)
record = recorder(sys.argv[1])

def timings(mod, q, k, v, idx, do, l_sel):
    "ms: the forward kernel with its tiles made beforehand, and the whole forward+backward."
    G = q.shape[2] // k.shape[2]
    tiles = mod.sel_tiles(idx, G)
    with torch.no_grad(): fwd = bench(lambda: mod.sel_fwd(q, k, v, idx, l_sel, 0.125, tiles))
    fb = bench(lambda: torch.autograd.backward(mod.selected_attention_triton(q, k, v, idx, l_sel)[0], do))
    return fwd, fb

def sweep(case, T, HQ, H, K, idx, cfg):
    B, G = idx.shape[0], HQ // H
    q, k, v = [torch.randn(B, T, h, K, device='cuda', dtype=torch.bfloat16, requires_grad=True) for h in (HQ, H, H)]
    do = torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16)
    o_old = before.selected_attention_triton(q, k, v, idx, cfg.l_sel)[0]
    r = dict(case=case, T=T, B=B, G=G, version='before')
    r['fwd_ms'], r['fwdbwd_ms'] = timings(before, q, k, v, idx, do, cfg.l_sel)
    record(r)
    frac0, tpp0 = sel.UNION_FRAC, sel.TOKENS_PER_PROGRAM
    BT = sel._tile_tokens(G)
    nblk = sel.tile_blocks(idx, BT)[1].float() if BT > 1 else None
    try:
        for frac, tpp in (configs if BT > 1 else [(frac0, tpp0)]):             # G > MAX_TILE_G: no tiles, nothing to sweep
            sel.UNION_FRAC, sel.TOKENS_PER_PROGRAM = frac, tpp
            o = sel.selected_attention_triton(q, k, v, idx, cfg.l_sel)[0]
            r = dict(case=case, T=T, B=B, G=G, version='this', tokens_per_tile=BT, union_frac=frac, tokens_per_program=tpp,
                     blocks_per_tile=None if nblk is None else nblk.mean().item(),
                     union_tiles=None if nblk is None else (nblk <= sel._union_max(G, idx.shape[-1])).float().mean().item(),
                     max_abs_diff_vs_before=(o.float() - o_old.float()).abs().max().item())
            r['fwd_ms'], r['fwdbwd_ms'] = timings(sel, q, k, v, idx, do, cfg.l_sel)
            record(r)
    finally: sel.UNION_FRAC, sel.TOKENS_PER_PROGRAM = frac0, tpp0

cfg = NSAConfig()
for T in (2048, 8192, 32768, 65536):                          # the 125M model's shape, 32k tokens
    torch.manual_seed(0)
    sweep('model125m_random', T, 12, 2, 64, random_selection(max(1, 32768 // T), T, 12, 2, 64, cfg), cfg)
for T in (2048, 8192, 32768, 65536):                          # a trained model's own shape and selections (middle layer), 32k tokens
    idxs, mc, nc = text_selections(T, max(1, 32768 // T))
    sweep('trained_text', T, mc.n_heads, mc.n_kv_groups, mc.d_k, idxs[len(idxs) // 2], nc)
for T in (8192, 65536):                                       # the paper's shape, B=1: one token per program, or tiles of 4
    torch.manual_seed(0)
    sweep('paper_random', T, 64, 4, 128, random_selection(1, T, 64, 4, 128, cfg), cfg)
