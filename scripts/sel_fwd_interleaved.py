"""The selected attention's forward kernel at the paper's shape, T=64k (G=16: one token per program, no tiles), this tree
against an older commit's module, interleaved three times in one process on one GPU (bf16, random q, k and their selections):
the order-free comparison of one launch.  mkdir -p .pk && git show REV:nsa_nb/kernels/selection.py > .pk/selection_head.py
Usage: python3 scripts/sel_fwd_interleaved.py"""
import sys, json, torch, triton
sys.path.insert(0, 'scripts')
import nsa_nb.kernels.selection as sel
from nsa_nb.config import NSAConfig
from _versions import load_old, random_selection
before = load_old('kernels.selection_head', '.pk/selection_head.py')
cfg = NSAConfig(); torch.manual_seed(0)
T, HQ, H, K = 65536, 64, 4, 128
idx = random_selection(1, T, HQ, H, K, cfg)
q, k, v = [torch.randn(1, T, h, K, device='cuda', dtype=torch.bfloat16) for h in (HQ, H, H)]
for rep in range(3):
    for name, mod in (('before', before), ('this', sel)):
        tiles = mod.sel_tiles(idx, 16)
        with torch.no_grad(): ms = triton.testing.do_bench(lambda: mod.sel_fwd(q, k, v, idx, cfg.l_sel, 0.125, tiles), warmup=25, rep=300)
        print(json.dumps(dict(rep=rep, version=name, fwd_ms=ms)), flush=True)
