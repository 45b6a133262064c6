import os, sys, time, torch
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nsa_nb.config import NSAConfig
from nsa_nb.attention import NSAttention
from nsa_nb.decode import layer_cache, fill_random_, nsa_decode_triton, nsa_decode_ref
from proto_twopass import nsa_decode_2pass as nsa_decode_fused
dev = 'cuda' if torch.cuda.is_available() else 'cpu'
def rel(a, b): return ((a.float() - b.float()).norm() / b.float().norm()).item()
def check(cfg, HQ, H, K, V, lens, max_len, lag=0, seed=0, **kw):
    torch.manual_seed(seed)
    attn = NSAttention(16, HQ, H, K, V, cfg=cfg).to(dev)
    B = len(lens)
    lc = fill_random_(layer_cache(attn, B, max_len, backend='triton'), 0, seed)
    pos = torch.tensor(lens, device=dev) - 1
    q = torch.randn(B, HQ, K, device=dev) * 2
    gates = torch.rand(B, HQ, 3, device=dev)
    o_t, i_t, r_t = nsa_decode_triton(q, lc, pos, gates, cfg)
    o_f, i_f, r_f = nsa_decode_fused(q, lc, pos, gates, cfg, **kw)
    assert (i_t == i_f).all(), (i_t, i_f)
    assert (r_t == r_f).all()
    e = rel(o_f, o_t); assert e < 1e-6, e
    return e
t0 = time.time()
lens = [1, 9, 33, 100, 127]
for lag, kw in ((0, dict(win_at=1)), (1, dict(win_at=2)), (3, dict(win_at=3))):
    for cfg, shape in [(NSAConfig(l=8, d=4, l_sel=16, n_sel=4, w=40), (4, 2, 16, 24)),
                       (NSAConfig(l=8, d=4, l_sel=16, n_sel=5, w=20, separate_kv=True, phi='mlp'), (6, 1, 16, 16)),
                       (NSAConfig(l=16, d=8, l_sel=32, n_sel=3, n_init=0, n_local=1, w=24), (3, 3, 32, 16))]:
        print(lag, cfg.n_sel, check(cfg, *shape, lens=lens, max_len=128, **kw), f'{time.time()-t0:.0f}s', flush=True)
cfg = NSAConfig(l=8, d=4, l_sel=8, n_sel=6, w=16)
print(check(cfg, 4, 2, 16, 16, lens=[50, 129, 200, 290], max_len=300, lag=1))
import nsa_nb.decode as D; D.RANK_PICK = 0
print(check(cfg, 4, 2, 16, 16, lens=[129, 400, 700], max_len=700, lag=1))
print(check(cfg, 4, 2, 16, 16, lens=[129, 400, 700], max_len=700, lag=1, win_at=2))
print('ok', f'{time.time()-t0:.0f}s')
