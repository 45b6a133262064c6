"""`tile_blocks` (notebook 06b, one Triton program per tile) against the sort-based PyTorch version of an older commit, on one GPU:
identical blocks and counts at real sizes (random slots with -1 and repeats), and the time of each.
Usage: git show aff1302:nsa_nb/kernels/selection.py > prev/selection.py; python3 scripts/check_tile_blocks.py prev"""
import sys, json, torch, triton
import nsa_nb.kernels.selection as ks
from _versions import load_old
old = load_old('kernels.selection_before', f'{sys.argv[1]}/selection.py')
for B, T, H, n, BT in [(16, 2048, 2, 16, 10), (1, 65536, 2, 16, 10), (1, 65536, 4, 16, 21), (2, 4097, 1, 32, 64), (1, 1000, 3, 5, 7)]:
    t = torch.arange(T, device='cuda')[None, :, None, None]
    idx = (torch.rand(B, T, H, n, device='cuda') * (t // 64 + 2)).long() - 1
    a, b = ks.tile_blocks(idx, BT), old.tile_blocks(idx, BT)
    ok = all(torch.equal(x, y) for x, y in zip(a, b))
    r = dict(B=B, T=T, H=H, n=n, BT=BT, equal=ok, kernel_ms=triton.testing.do_bench(lambda: ks.tile_blocks(idx, BT)), torch_ms=triton.testing.do_bench(lambda: old.tile_blocks(idx, BT)))
    print(json.dumps(r), flush=True)
    assert ok
