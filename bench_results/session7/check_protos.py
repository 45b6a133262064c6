# CPU checks of the three prototypes under the Triton interpreter, against this tree's nsa_decode_triton:
# the same selected blocks, the same read counters, outputs within 1e-6 relative (about 2.5 minutes in all).
#   python3 bench_results/session7/check_protos.py [onelaunch] [twopass] [selgroup]
import os, sys, time, torch
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nsa_nb.config import NSAConfig
from nsa_nb.attention import NSAttention
from nsa_nb.decode import layer_cache, fill_random_, nsa_decode_triton
import nsa_nb.decode as D
from proto_onelaunch import nsa_decode_fused
from proto_twopass import nsa_decode_2pass
from proto_selgroup import decode_nb
dev = 'cuda' if torch.cuda.is_available() else 'cpu'
def rel(a, b): return ((a.float() - b.float()).norm() / b.float().norm()).item()
def check(step, cfg, HQ, H, K, V, lens, max_len, seed=0):
    "step(q, lc, pos, gates, cfg) against nsa_decode_triton on one random cache."
    torch.manual_seed(seed)
    attn = NSAttention(16, HQ, H, K, V, cfg=cfg).to(dev)
    lc = fill_random_(layer_cache(attn, len(lens), max_len, backend='triton'), 0, seed)
    pos = torch.tensor(lens, device=dev) - 1
    q, g = torch.randn(len(lens), HQ, K, device=dev) * 2, torch.rand(len(lens), HQ, 3, device=dev)
    o_t, i_t, r_t = nsa_decode_triton(q, lc, pos, g, cfg)
    o_f, i_f, r_f = step(q, lc, pos, g, cfg)
    assert (i_t == i_f).all() and (r_t == r_f).all()
    e = rel(o_f, o_t); assert e < 1e-6, e
    return e
SMALL = [(NSAConfig(l=8, d=4, l_sel=16, n_sel=4, w=40), (4, 2, 16, 24)),
         (NSAConfig(l=8, d=4, l_sel=16, n_sel=5, w=20, separate_kv=True, phi='mlp'), (6, 1, 16, 16)),
         (NSAConfig(l=16, d=8, l_sel=32, n_sel=3, n_init=0, n_local=1, w=24), (3, 3, 32, 16))]
MERGED = NSAConfig(l=8, d=4, l_sel=8, n_sel=6, w=16)          # 88 blocks at 700 tokens: the pick merges several lists (RANK_PICK = 0)
CASES = dict(onelaunch=[lambda *a, kw=kw: nsa_decode_fused(*a, **kw) for kw in (dict(lag=0), dict(lag=1, nb=4, cg=4), dict(lag=3, nb=3, cg=2, np_row=1))],
             twopass=[lambda *a, kw=kw: nsa_decode_2pass(*a, **kw) for kw in (dict(win_at=1), dict(win_at=2), dict(win_at=3))],
             selgroup=[lambda *a, nb=nb: decode_nb(nb, *a) for nb in (2, 3)])
t0 = time.time()
for name in sys.argv[1:] or CASES:
    for step in CASES[name]:
        for win in ((16 << 20, 0) if name == 'selgroup' else (D.SEL_WINDOW_BYTES,)):   # the window beside the picks, or in the range launch
            D.SEL_WINDOW_BYTES = win
            for cfg, shape in SMALL: check(step, cfg, *shape, lens=[1, 9, 33, 100, 127], max_len=128)
        D.SEL_WINDOW_BYTES, D.RANK_PICK = 16 << 20, 0
        check(step, MERGED, 4, 2, 16, 16, lens=[129, 400, 700], max_len=700)
        D.RANK_PICK = 128
    print(f'{name}: ok ({time.time() - t0:.0f} s)', flush=True)
