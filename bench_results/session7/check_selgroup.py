import os, sys, time, torch
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nsa_nb.config import NSAConfig
from nsa_nb.attention import NSAttention
from nsa_nb.decode import layer_cache, fill_random_, nsa_decode_triton
import nsa_nb.decode as D
from proto_selgroup import decode_nb
dev = 'cuda' if torch.cuda.is_available() else 'cpu'
def rel(a, b): return ((a.float() - b.float()).norm() / b.float().norm()).item()
def check(cfg, HQ, H, K, V, lens, max_len, nb, seed=0):
    torch.manual_seed(seed)
    attn = NSAttention(16, HQ, H, K, V, cfg=cfg).to(dev)
    lc = fill_random_(layer_cache(attn, len(lens), max_len, backend='triton'), 0, seed)
    pos = torch.tensor(lens, device=dev) - 1
    q = torch.randn(len(lens), HQ, K, device=dev) * 2
    g = torch.rand(len(lens), HQ, 3, device=dev)
    o_t, i_t, r_t = nsa_decode_triton(q, lc, pos, g, cfg)
    o_f, i_f, r_f = decode_nb(nb, q, lc, pos, g, cfg)
    assert (i_t == i_f).all() and (r_t == r_f).all(); e = rel(o_f, o_t); assert e < 1e-6, e
    return e
t0 = time.time()
for nb in (2, 3):
    for win in (16 << 20, 0):
        D.SEL_WINDOW_BYTES = win
        for cfg, shape in [(NSAConfig(l=8, d=4, l_sel=16, n_sel=4, w=40), (4, 2, 16, 24)), (NSAConfig(l=8, d=4, l_sel=16, n_sel=5, w=20, separate_kv=True, phi='mlp'), (6, 1, 16, 16))]:
            print(nb, win, check(cfg, *shape, lens=[1, 9, 33, 100, 127], max_len=128, nb=nb), f'{time.time()-t0:.0f}s', flush=True)
cfg = NSAConfig(l=8, d=4, l_sel=8, n_sel=6, w=16); D.RANK_PICK = 0
print(check(cfg, 4, 2, 16, 16, lens=[129, 400, 700], max_len=700, nb=4)); print('ok')
