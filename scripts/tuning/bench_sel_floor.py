"""Two questions about the selected branch, in one run on one GPU, bf16, B=1.

  floor: how far can NSA's forward+backward get ahead of SDPA on the kernel benchmark's inputs (random q, k)?
         With random q each token selects blocks its neighbours do not, so the selected forward and dq stream 16 blocks
         of K and V per token and KV head. A kernel that only loads those same blocks (same grid, same masks, no
         products) times that traffic; every other part of NSA is counted as matrix work at SDPA's own forward rate,
         measured here. Their sum bounds NSA's forward+backward from below; SDPA's time over it bounds the speed-up.
  g16:   groups of 16 heads (the paper's shape) with tiles of 4 tokens (64 rows) where a tile's union is small
         (`SelTuning(max_tile_g=16)`), against one token per program (`max_tile_g` 8, the default): selected attention,
         forward and forward+backward, on selections of random q and of queries correlated along the sequence
         (AR(1): q_t = rho q_{t-1} + sqrt(1 - rho^2) eps_t, k random), with the blocks per tile they give; and the whole
         NSA's times with the default, for scale.

About 5 minutes on one H100 for `all`. Usage: python3 scripts/tuning/bench_sel_floor.py OUT.json floor|g16|all      (TINY=1: a smoke run at tiny sizes, also on a CPU)"""
import os, sys, math, json
import torch
if os.environ.get('TINY') == '1' and not torch.cuda.is_available(): os.environ.setdefault('TRITON_INTERPRET', '1')   # CPU smoke run
import triton
import triton.language as tl
import nsa_nb.kernels.selection as sel
from nsa_nb.kernels.selection import SelTuning
from nsa_nb.config import NSAConfig
from nsa_nb.bench import nsa_full, sdpa_full
from _common import selection_of, ar1

if len(sys.argv) != 3 or sys.argv[2] not in ('floor', 'g16', 'all'): sys.exit(__doc__)
TINY, dev = os.environ.get('TINY') == '1', 'cuda' if torch.cuda.is_available() else 'cpu'
dt = torch.bfloat16 if dev == 'cuda' else torch.float32
bench = (lambda f: triton.testing.do_bench(f, warmup=10, rep=100, return_mode='median')) if dev == 'cuda' else (lambda f: (f(), 1.)[1])   # CPU smoke run: every time reads 1 ms
out = dict(device=torch.cuda.get_device_name() if dev == 'cuda' else 'cpu', torch=torch.__version__, triton=triton.__version__, rows=[])
def record(r):
    print(json.dumps(r), flush=True); out['rows'].append(r); json.dump(out, open(sys.argv[1], 'w'), indent=1)

@triton.jit
def _gather_kernel(Kt, Vt, IDX, OUT, T, H: tl.constexpr, NSEL: tl.constexpr, K: tl.constexpr, BS: tl.constexpr):
    "Loads what `_sel_fwd_kernel` loads for one token (ONE): its NSEL blocks of K and V, masked after the token; sums them so that nothing is dropped."
    i_t, i_bh = tl.program_id(0), tl.program_id(1)
    i_b, i_h = (i_bh // H).to(tl.int64), i_bh % H
    o_k = tl.arange(0, K)
    acc = tl.zeros([BS, K], tl.float32)
    for i in range(NSEL):
        j = tl.load(IDX + ((i_b * T + i_t) * H + i_h) * NSEL + i)
        o_s = tl.maximum(j, 0) * BS + tl.arange(0, BS)
        m_s = (o_s <= i_t) & (j >= 0)
        key = (i_b * T + o_s) * H + i_h
        acc += tl.load(Kt + key[:, None] * K + o_k[None, :], mask=m_s[:, None], other=0.).to(tl.float32)
        acc += tl.load(Vt + key[:, None] * K + o_k[None, :], mask=m_s[:, None], other=0.).to(tl.float32)
    tl.store(OUT + i_t * (tl.num_programs(1)) + i_bh, tl.sum(acc))

def gather_only(k, v, idx, l_sel, num_warps):
    B, T, H, K = k.shape
    o = torch.empty(T, B * H, device=k.device, dtype=torch.float32)
    _gather_kernel[(T, B * H)](k, v, idx, o, T, H=H, NSEL=idx.shape[-1], K=K, BS=l_sel, num_warps=num_warps, num_stages=2)
    return o

def floor(T, shape, HQ, H, K, cfg):
    torch.manual_seed(0)
    q, k, v = [torch.randn(1, T, h, K, device=dev, dtype=dt) for h in (HQ, H, H)]
    idx = selection_of(q, k, cfg)
    G, scale = HQ // H, 1 / math.sqrt(K)
    with torch.no_grad():
        tiles = sel.sel_tiles(idx, G)
        sel_ms = bench(lambda: sel.sel_fwd(q, k, v, idx, cfg.l_sel, scale, tiles))
        gather = {nw: bench(lambda: gather_only(k, v, idx, cfg.l_sel, nw)) for nw in (2, 4, 8)}
    g_ms = min(gather.values())
    blocks = (idx >= 0).sum().item()                       # (token, KV head, block) triples read
    gbytes = blocks * cfg.l_sel * 2 * K * q.element_size() / 1e9
    # SDPA: its forward rate is the rate given to all of NSA's matrix work below
    qs, ks, vs = [x.transpose(1, 2).contiguous().requires_grad_() for x in (q, k, v)]
    with torch.no_grad(): sdpa_fwd = bench(lambda: sdpa_full(qs, ks, vs))
    o = sdpa_full(qs, ks, vs); do = torch.randn_like(o)
    sdpa_fb = bench(lambda: torch.autograd.grad(sdpa_full(qs, ks, vs), (qs, ks, vs), do))
    unit = lambda keys: 2 * HQ * keys * K                  # one [queries x keys] matrix product over K (= V here), B=1
    dense_fwd = 2 * unit(T * T / 2)
    rate = dense_fwd / (sdpa_fwd / 1e3)                    # FLOP/s
    cmp_k, sel_k, win_k = T * T / (2 * cfg.d), T * cfg.n_sel * cfg.l_sel, T * cfg.w
    # this design's matrix work besides the selected forward and dq: compressed fwd 2 + scores 1 + bwd 7 (dk/dv 4, dq 3),
    # window fwd 2 + bwd 7, selected dk/dv 4; FlashAttention-2's backward with atomic dq would do 5 instead of 7
    rest = unit(cmp_k) * 10 + unit(win_k) * 9 + unit(sel_k) * 4
    rest_fa2 = unit(cmp_k) * 8 + unit(win_k) * 7 + unit(sel_k) * 4
    bound = 2 * g_ms + rest / rate * 1e3                   # the forward's and dq's block loads, the rest at SDPA's rate
    fwd_bound = g_ms + (unit(cmp_k) * 3 + unit(win_k) * 2) / rate * 1e3   # forward: compressed 2 + scores 1, window 2, selected loads
    bound_fa2 = 2 * g_ms + rest_fa2 / rate * 1e3
    g = torch.rand(1, T, HQ, 3, device=dev, dtype=dt)
    qn, kn_, vn = [x.clone().requires_grad_() for x in (q, k, v)]
    with torch.no_grad(): nsa_fwd = bench(lambda: nsa_full(qn, kn_, vn, g, cfg))
    o = nsa_full(qn, kn_, vn, g, cfg); do = torch.randn_like(o)
    nsa_fb = bench(lambda: torch.autograd.grad(nsa_full(qn, kn_, vn, g, cfg), (qn, kn_, vn), do))
    record(dict(part='floor', shape=shape, T=T, sel_fwd_ms=sel_ms, gather_ms=gather, gather_gbytes=gbytes,
                gather_tb_s=gbytes / g_ms, sel_fwd_tb_s=gbytes / sel_ms, sdpa_fwd_ms=sdpa_fwd, sdpa_fwdbwd_ms=sdpa_fb, sdpa_fwd_tflop_s=rate / 1e12,
                rest_tflop=rest / 1e12, fwd_bound_ms=fwd_bound, fwd_ceiling_x=sdpa_fwd / fwd_bound, bound_ms=bound, bound_fa2_dq_ms=bound_fa2, ceiling_x=sdpa_fb / bound, ceiling_fa2_dq_x=sdpa_fb / bound_fa2,
                nsa_fwd_ms=nsa_fwd, nsa_fwdbwd_ms=nsa_fb, nsa_fwdbwd_x=sdpa_fb / nsa_fb))

def g16(T, rho, cfg, HQ=64, H=4, K=128):
    torch.manual_seed(0)
    q = ar1(1, T, HQ, K, rho, dev).to(dt)
    k, v = [torch.randn(1, T, H, K, device=dev, dtype=dt) for _ in range(2)]
    idx = selection_of(q, k, cfg)
    g = torch.rand(1, T, HQ, 3, device=dev, dtype=dt)
    per_token = (idx >= 0).sum(-1).float().mean().item()
    res = {}
    for max_g in (8, 16):
        tune = SelTuning(max_tile_g=max_g)
        G = HQ // H
        nblk = sel.tile_blocks(idx, 4)[1]                  # the 4-token tiles' unions (what max_tile_g = 16 streams)
        r = dict(part='g16', T=T, rho=rho, max_tile_g=max_g, tokens_per_tile=sel._tile_tokens(G, tune), blocks_per_token=per_token,
                 blocks_per_4_token_tile=nblk.float().mean().item(), tiles_streaming=(nblk <= sel._union_max(16, cfg.n_sel, tune) if max_g == 16 else nblk < 0).float().mean().item())
        qq, kk, vv = [x.clone().requires_grad_() for x in (q, k, v)]
        o = sel.selected_attention_triton(qq, kk, vv, idx, cfg.l_sel, tune=tune)[0]; do = torch.randn_like(o)
        res[max_g] = o.detach()
        with torch.no_grad(): r['sel_fwd_ms'] = bench(lambda: sel.selected_attention_triton(q, k, v, idx, cfg.l_sel, tune=tune))
        r['sel_fwdbwd_ms'] = bench(lambda: torch.autograd.grad(sel.selected_attention_triton(qq, kk, vv, idx, cfg.l_sel, tune=tune)[0], (qq, kk, vv), do))
        if max_g == 8:                                     # the whole NSA runs the default tuning
            with torch.no_grad(): r['nsa_fwd_ms'] = bench(lambda: nsa_full(q, k, v, g, cfg))
            o = nsa_full(qq, kk, vv, g, cfg); do2 = torch.randn_like(o)
            r['nsa_fwdbwd_ms'] = bench(lambda: torch.autograd.grad(nsa_full(qq, kk, vv, g, cfg), (qq, kk, vv), do2))
        if max_g == 16: r['max_abs_diff_vs_8'] = (res[16].float() - res[8].float()).abs().max().item()
        record(r)

cfg = NSAConfig()
if TINY: cfg = NSAConfig(l=8, d=4, l_sel=16, n_sel=4, w=16)
if sys.argv[2] in ('floor', 'all'):
    for T, shape, (HQ, H, K) in ([(96, 'tiny', (32, 2, 16))] if TINY else [(65536, 'paper', (64, 4, 128)), (65536, 'model125m', (12, 2, 64))]):
        floor(T, shape, HQ, H, K, cfg)
if sys.argv[2] in ('g16', 'all'):
    for T in ((96,) if TINY else (8192, 65536)):
        for rho in (0.0, 0.9, 0.99):
            g16(T, rho, cfg, *((32, 2, 16) if TINY else (64, 4, 128)))
