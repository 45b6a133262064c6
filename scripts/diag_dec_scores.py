# Where the decode scores kernel's time goes (notebook 11): one copy of it with parts switched off by constexpr flags (the
# ranking in registers or through memory as version 2 did, the loads of the compressed scores, the lse merge), timed alone
# over 200 CUDA-graph replays at batch 1 and 8, 64k, the 125M shape, for 64 to 512 blocks per program and 4 or 8 warps.
# Run from the repository root on a GPU node, after taking version 2 from git (for its memory ranking):
#   mkdir -p .pk && git show d44548f:nsa_nb/decode.py > .pk/decode_five.py && python3 scripts/diag_dec_scores.py OUT.json
import sys, json, torch, triton, triton.language as tl
sys.path.insert(0, 'scripts')
import nsa_nb.decode as D
from nsa_nb.decode import _bench_model, layer_cache, fill_random_, _time_steps, _split, _rank
from _versions import load_old
_rank_before = load_old('decode_five', '.pk/decode_five.py')._rank_before

@triton.jit
def scores_var(S, LSE, POS, CV, CI, SC, C, n_slc, l, d, l_sel, n_init, n_local, NS,
               HQ: tl.constexpr, H: tl.constexpr, G: tl.constexpr, NSP: tl.constexpr,
               SU: tl.constexpr, LU: tl.constexpr, BG: tl.constexpr, BJ: tl.constexpr, NSEL: tl.constexpr,
               RANK: tl.constexpr, LOADS: tl.constexpr, MERGE: tl.constexpr, CB: tl.constexpr):
    i_j, i_bh = tl.program_id(0), tl.program_id(1)
    i_b, i_h = (i_bh // H).to(tl.int64), i_bh % H
    p = tl.load(POS + i_b)
    n_vis = tl.where(p + 1 >= l, (p + 1 - l) // d + 1, 0)
    o_g, o_n = tl.arange(0, BG), tl.arange(0, NSP)
    m_g = o_g < G
    row = i_b * HQ + i_h * G + o_g
    if MERGE:
        b_lp = tl.load(LSE + row[:, None] * NS + o_n[None, :], mask=m_g[:, None] & (o_n < NS)[None, :], other=float('-inf'))
        b_mx = tl.max(b_lp, 1)
        b_mx = tl.where(b_mx == float('-inf'), 0., b_mx)
        b_z = tl.sum(tl.exp(b_lp - b_mx[:, None]), 1)
        b_lse = tl.where(b_z == 0., float('-inf'), b_mx + tl.log(tl.where(b_z == 0., 1., b_z)))
    else: b_lse = tl.zeros([BG], tl.float32)
    o_j = i_j * BJ + tl.arange(0, BJ)
    b_acc = tl.zeros([BG, BJ], tl.float32)
    if LOADS:
        for r in tl.static_range(SU + LU - 1):
            o_i = o_j * SU - LU + 1 + r
            m_i = m_g[:, None] & ((o_i >= 0) & (o_i < n_vis))[None, :]
            b_s = tl.load(S + row[:, None] * C + o_i[None, :], mask=m_i, other=0.)
            b_acc += (min(r + 1, SU) - max(r + 1 - LU, 0)) * tl.where(m_i, tl.exp(b_s - b_lse[:, None]), 0.)
    else: b_acc += b_lse[:, None]
    b_sc = tl.sum(b_acc, 0)
    cur = p // l_sel
    visible = o_j <= cur
    forced = (o_j < n_init) | ((o_j > cur - n_local) & visible)
    b_sc = tl.where(visible, tl.where(forced, float('inf'), b_sc), float('-inf'))
    if RANK == 1: rank = _rank(b_sc, o_j)
    elif RANK == 2:
        tl.store(SC + i_bh * n_slc + o_j, b_sc, mask=o_j < n_slc)
        tl.debug_barrier()
        v, ix, rank = _rank_before(SC, SC, i_bh * n_slc + i_j * BJ, tl.minimum(n_slc - i_j * BJ, BJ), BJ, CB, False)
    else: rank = o_j - i_j * BJ
    cand = (i_bh * tl.num_programs(0) + i_j) * NSEL + rank
    tl.store(CV + cand, b_sc, mask=rank < NSEL)
    tl.store(CI + cand, o_j, mask=rank < NSEL)

model = _bench_model('nsa', 'configs/m7c_125m.yaml', torch.bfloat16); attn = model.blocks[0].attn; cfg = attn.cfg
out = []
for B in (1, 8):
    T = 65536
    lc = fill_random_(layer_cache(attn, B, T + 200), 0)
    pos = torch.full((B,), T, device='cuda', dtype=torch.long)
    q = torch.randn(B, attn.n_heads, attn.d_k, device='cuda', dtype=torch.bfloat16)
    H, N, HQ, K, V = lc.kc.shape[1], lc.kc.shape[2], attn.n_heads, attn.d_k, attn.d_v
    G = HQ // H
    CHc, NSc = _split(N, 64, B * H, q.device)
    s_c = torch.randn(B, HQ, N, device='cuda'); l_c = torch.randn(B, HQ, NSc, device='cuda') + 5
    n_slc = triton.cdiv(lc.max_len, cfg.l_sel)
    for BJ in (64, 128, 256, 512):
        NP = triton.cdiv(n_slc, BJ)
        c_v, c_i = torch.empty(B * H, NP * 16, device='cuda'), torch.empty(B * H, NP * 16, device='cuda', dtype=torch.int32)
        sc = torch.empty(B * H, n_slc, device='cuda')
        for name, fl in [('full_regrank', dict(RANK=1, LOADS=1, MERGE=1)), ('full_memrank', dict(RANK=2, LOADS=1, MERGE=1)),
                         ('norank', dict(RANK=0, LOADS=1, MERGE=1)), ('noloads_norank', dict(RANK=0, LOADS=0, MERGE=1)),
                         ('nothing', dict(RANK=0, LOADS=0, MERGE=0)), ('regrank_only', dict(RANK=1, LOADS=0, MERGE=0)),
                         ('memrank_only', dict(RANK=2, LOADS=0, MERGE=0))]:
            if fl['RANK'] == 1 and BJ > 128: continue
            for nw in (4, 8):
                f = lambda: scores_var[(NP, B * H)](s_c, l_c, pos, c_v, c_i, sc, N, n_slc, cfg.l, cfg.d, cfg.l_sel, cfg.n_init, cfg.n_local, NSc,
                    HQ=HQ, H=H, G=G, NSP=triton.next_power_of_2(NSc), SU=cfg.l_sel // cfg.d, LU=cfg.l // cfg.d, BG=16, BJ=BJ, NSEL=16, CB=32, num_warps=nw, **fl)
                us = _time_steps(f, 200, 5, True) * 1000
                r = dict(B=B, BJ=BJ, variant=name, nw=nw, us=round(us, 2)); out.append(r); print(json.dumps(r), flush=True)
json.dump(out, open(sys.argv[1], 'w'))
