"""Selected attention with one program per tile of consecutive tokens (this tree) against one program per token (commit 4558c1b),
in one run on one GPU, bf16.
  kernels: forward and forward+backward of `selected_attention_triton`, old and new with one token per program and
           at several tile sizes (`ROWS`, rows per program), on two kinds of selections: those of random q/k (what `nsa_nb_bench kernels` feeds: neighbouring tokens pick
           nearly unrelated blocks) and those of a trained model on real text (the byte-level model of notebook 14, on the
           standard library's source: neighbours share most blocks). Also the measured blocks per tile, and old/new outputs compared.
  train:   training tokens/s of the 125M model (as `nsa_nb_bench train`, 32k tokens per step), dense, old and new selection.
Take the old module from git and the trained model first (on a machine with the history), then carry .pk to the GPU node:
  mkdir -p .pk && git show 4558c1b:nsa_nb/kernels/selection.py > .pk/selection_before.py     (and .pk/w_text_nsa_avg.pt)
  python3 scripts/bench_sel_tiles.py OUT.json kernels|text|train      (text: only the trained model's selections)"""
import sys
import torch, triton
import nsa_nb.kernels.selection as sel
import nsa_nb.kernels.nsa as kn
from nsa_nb.config import NSAConfig
from _versions import load_old, train_with, random_selection, text_selections, recorder

if len(sys.argv) != 3 or sys.argv[2] not in ('kernels', 'text', 'train'): sys.exit(__doc__)
before = load_old('kernels.selection_before', '.pk/selection_before.py')
after = sel.selected_attention_triton
bench = lambda f: triton.testing.do_bench(f, warmup=10, rep=100)
record = recorder(sys.argv[1])

def time_selection(case, T, HQ, H, K, idx, cfg):
    "Old and new kernels (tile sizes swept) on one selection: ms forward and forward+backward, blocks per tile, outputs compared."
    B = idx.shape[0]
    q, k, v = [torch.randn(B, T, h, K, device='cuda', dtype=torch.bfloat16, requires_grad=True) for h in (HQ, H, H)]
    do = torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16)
    def timings(f):
        fwd = bench(lambda: f(q, k, v, idx, cfg.l_sel))
        fb = bench(lambda: torch.autograd.backward(f(q, k, v, idx, cfg.l_sel)[0], do))
        return fwd, fb
    o_old = before.selected_attention_triton(q, k, v, idx, cfg.l_sel)[0]
    r0 = dict(case=case, T=T, B=B, version='old', blocks_per_token=(idx >= 0).sum(-1).float().mean().item())
    r0['fwd_ms'], r0['fwdbwd_ms'] = timings(before.selected_attention_triton)
    with torch.no_grad(): r0['kernel_fwd_ms'] = bench(lambda: before.sel_fwd(q, k, v, idx, cfg.l_sel, 0.125))
    record(r0)
    rows0, max_g0 = sel.ROWS, sel.MAX_TILE_G
    for rows, max_g in ((16, 0), (16, 64), (32, 64), (64, 64), (128, 64)):    # max_g=0: one token per program; 64: tiles
        sel.ROWS, sel.MAX_TILE_G = rows, max_g
        G = HQ // H; BT = sel._tile_tokens(G)
        nblk = sel.tile_blocks(idx, BT)[1]
        o_new = after(q, k, v, idx, cfg.l_sel)[0]
        r = dict(case=case, T=T, B=B, version='new', rows=sel._tile_rows(G), tokens_per_tile=BT, blocks_per_tile=nblk.float().mean().item(),
                 max_abs_diff_vs_old=(o_new.float() - o_old.float()).abs().max().item())
        r['fwd_ms'], r['fwdbwd_ms'] = timings(after)
        tiles = sel.sel_tiles(idx, G)
        r['tiles_ms'] = bench(lambda: sel.sel_tiles(idx, G))
        with torch.no_grad(): r['kernel_fwd_ms'] = bench(lambda: sel.sel_fwd(q, k, v, idx, cfg.l_sel, 0.125, tiles))
        r['fwd_speedup'], r['fwdbwd_speedup'] = r0['fwd_ms'] / r['fwd_ms'], r0['fwdbwd_ms'] / r['fwdbwd_ms']
        record(r)
    sel.ROWS, sel.MAX_TILE_G = rows0, max_g0

if sys.argv[2] == 'kernels':
    cfg = NSAConfig()
    for T in (2048, 8192, 32768, 65536):                      # 125M model's shape, its training batch of 32k tokens
        torch.manual_seed(0)
        time_selection('model125m_random', T, 12, 2, 64, random_selection(max(1, 32768 // T), T, 12, 2, 64, cfg), cfg)
    for T in (8192, 65536):                                   # paper shape, B=1
        torch.manual_seed(0)
        time_selection('paper_random', T, 64, 4, 128, random_selection(1, T, 64, 4, 128, cfg), cfg)
if sys.argv[2] in ('kernels', 'text'):
    for T in (2048, 8192, 32768, 65536):                      # a trained model's own shape and selections (middle layer), 32k tokens
        idxs, mc, nc = text_selections(T, max(1, 32768 // T))
        time_selection('trained_text', T, mc.n_heads, mc.n_kv_groups, mc.d_k, idxs[len(idxs) // 2], nc)
if sys.argv[2] == 'train':
    for T in (2048, 8192, 32768):
        for name, attn, fn in (('dense', 'dense', after), ('nsa_old', 'nsa', before.selected_attention_triton), ('nsa_new', 'nsa', after)):
            r = train_with(kn, 'selected_attention_triton', fn, attn, T)   # what nsa_branches calls
            r['version'] = name
            record({k: r[k] for k in ('version', 'seq_len', 'batch_size', 'tokens_per_s', 'step_ms', 'peak_mem_gib')})
