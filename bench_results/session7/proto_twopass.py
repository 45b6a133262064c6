# prototype: the compressed branch in two passes (q.k and scores first; p.v beside the top-n), so the top-n's latency hides behind the values' stream
import math, torch, triton, triton.language as tl
import nsa_nb.decode as D
from nsa_nb.decode import _dec_range, _dec_sel_kernel, _dec_combine_kernel, _pdl_enter, _pdl_exit, INTERPRET, _split, _range_stages, _use_pdl
from proto_onelaunch import _dec_scores

@triton.jit
def _cmp_bounds(p, i_s, CH, l, d):
    lo, hi = p * 0, tl.where(p + 1 >= l, (p + 1 - l) // d + 1, 0)
    s_lo = lo + i_s * CH
    return s_lo, tl.minimum(s_lo + CH, hi)

@triton.jit
def _dec_qk(Q, KC, POS, LSE, S, CNT, C, scale, l, d, NS, CH, i_s, i_bh,
            HQ: tl.constexpr, H: tl.constexpr, G: tl.constexpr, K: tl.constexpr, BN: tl.constexpr, BG: tl.constexpr, BK: tl.constexpr,
            COUNT: tl.constexpr, PREC: tl.constexpr):
    "Compressed chunk i_s of row i_bh, keys only: its scores (x scale) into S, their lse into LSE."
    i_b, i_h = (i_bh // H).to(tl.int64), i_bh % H
    s_lo, s_hi = _cmp_bounds(tl.load(POS + i_b), i_s, CH, l, d)
    o_g, o_k = tl.arange(0, BG), tl.arange(0, BK)
    m_g = o_g < G
    row = i_b * HQ + i_h * G + o_g
    b_q = tl.load(Q + row[:, None] * K + o_k[None, :], mask=m_g[:, None] & (o_k < K)[None, :], other=0.)
    base = (i_b * H + i_h) * C
    b_m = tl.full([BG], float('-inf'), tl.float32)
    b_l = tl.zeros([BG], tl.float32)
    for s0 in range(s_lo, s_hi, BN):
        o_s = s0 + tl.arange(0, BN)
        m_s = o_s < s_hi
        b_k = tl.load(KC + (base + o_s)[None, :] * K + o_k[:, None], mask=m_s[None, :] & (o_k < K)[:, None], other=0.)
        b_s = tl.dot(b_q, b_k, input_precision=PREC)
        tl.store(S + row[:, None] * C + o_s[None, :], b_s * scale, mask=m_g[:, None] & m_s[None, :])
        b_s = tl.where(m_s[None, :], b_s * (scale * 1.4426950408889634), float('-inf'))
        m_new = tl.maximum(b_m, tl.max(b_s, 1))
        m_safe = tl.where(m_new == float('-inf'), 0., m_new)
        b_l = b_l * tl.exp2(b_m - m_safe) + tl.sum(tl.exp2(b_s - m_safe[:, None]), 1)
        b_m = m_new
    empty = b_l == 0.
    tl.store(LSE + row * NS + i_s, tl.where(empty, float('-inf'), (b_m + tl.log2(tl.where(empty, 1., b_l))) * 0.6931471805599453), mask=m_g)
    if COUNT: tl.store(CNT + i_bh * NS + i_s, tl.maximum(s_hi - s_lo, 0))

@triton.jit
def _dec_pv(VC, S, POS, O, LSE, C, l, d, NS, CH, i_s, i_bh,
            HQ: tl.constexpr, H: tl.constexpr, G: tl.constexpr, V: tl.constexpr, BN: tl.constexpr, BG: tl.constexpr, BV: tl.constexpr,
            PREC: tl.constexpr):
    "Compressed chunk i_s of row i_bh, values only: o = sum_i exp(s_i - lse) v_i with the chunk's own lse (so o is already normalised over the chunk)."
    i_b, i_h = (i_bh // H).to(tl.int64), i_bh % H
    s_lo, s_hi = _cmp_bounds(tl.load(POS + i_b), i_s, CH, l, d)
    o_g, o_v = tl.arange(0, BG), tl.arange(0, BV)
    m_g = o_g < G
    row = i_b * HQ + i_h * G + o_g
    b_lse = tl.load(LSE + row * NS + i_s, mask=m_g, other=float('-inf')) * 1.4426950408889634
    b_lse = tl.where(b_lse == float('-inf'), float('inf'), b_lse)                            # empty chunk: every p = 0
    base = (i_b * H + i_h) * C
    b_acc = tl.zeros([BG, BV], tl.float32)
    for s0 in range(s_lo, s_hi, BN):
        o_s = s0 + tl.arange(0, BN)
        m_s = o_s < s_hi
        b_s = tl.load(S + row[:, None] * C + o_s[None, :], mask=m_g[:, None] & m_s[None, :], other=float('-inf'))
        b_p = tl.exp2(b_s * 1.4426950408889634 - b_lse[:, None])
        b_v = tl.load(VC + (base + o_s)[:, None] * V + o_v[None, :], mask=m_s[:, None] & (o_v < V)[None, :], other=0.)
        b_acc += tl.dot(b_p.to(b_v.dtype), b_v, input_precision=PREC)
    tl.store(O + (row * NS + i_s)[:, None] * V + o_v[None, :], b_acc, mask=m_g[:, None] & (o_v < V)[None, :])

@triton.jit
def _k1(Q, KC, LC, S, NC, NSC, CHC, KW, VW, OW, LW, NW, NSW, CHW, CW, POS, C, scale, l, d, w,
        HQ: tl.constexpr, H: tl.constexpr, G: tl.constexpr, K: tl.constexpr, V: tl.constexpr, WMODE: tl.constexpr,
        BN: tl.constexpr, BG: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr, COUNT: tl.constexpr, PREC: tl.constexpr, PDL: tl.constexpr):
    _pdl_enter(PDL)
    i_bh, i_s = tl.program_id(0), tl.program_id(1)
    if i_s < NSC:
        _dec_qk(Q, KC, POS, LC, S, NC, C, scale, l, d, NSC, CHC, i_s, i_bh, HQ=HQ, H=H, G=G, K=K, BN=BN, BG=BG, BK=BK, COUNT=COUNT, PREC=PREC)
    else:
        _dec_range(Q, KW, VW, POS, OW, LW, S, NW, CW, scale, l, d, w, NSW, CHW, i_s - NSC, i_bh, HQ=HQ, H=H, G=G, K=K, V=V,
                   MODE=WMODE, BN=BN, BG=BG, BK=BK, BV=BV, WRITE_S=False, COUNT=COUNT, PREC=PREC)
    _pdl_exit(PDL)

@triton.jit
def _k2(S, LC, POS, CV, CI, C, n_slc, l, d, l_sel, n_init, n_local, NSC, CHC, NP, VC, OC,
        Q, KW, VW, OW, LW, NW, NSW, CHW, CW, scale, w,
        HQ: tl.constexpr, H: tl.constexpr, G: tl.constexpr, K: tl.constexpr, V: tl.constexpr, NSP: tl.constexpr,
        SU: tl.constexpr, LU: tl.constexpr, BG: tl.constexpr, BJ: tl.constexpr, SUBS: tl.constexpr,
        NSEL: tl.constexpr, NSELP: tl.constexpr, OWN_LOAD: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr,
        WMODE: tl.constexpr, COUNT: tl.constexpr, PREC: tl.constexpr, PDL: tl.constexpr):
    "Programs (row, i): i < NP the scores, then the compressed values' chunks, then (NSW > 0) the window's."
    _pdl_enter(PDL)
    i_bh, i = tl.program_id(0), tl.program_id(1)
    if i < NP:
        _dec_scores(S, LC, POS, CV, CI, C, n_slc, l, d, l_sel, n_init, n_local, NSC, i, i_bh, NP,
                    HQ=HQ, H=H, G=G, NSP=NSP, SU=SU, LU=LU, BG=BG, BJ=BJ, SUBS=SUBS, NSEL=NSEL, NSELP=NSELP, OWN_LOAD=OWN_LOAD)
    elif i < NP + NSC:
        _dec_pv(VC, S, POS, OC, LC, C, l, d, NSC, CHC, i - NP, i_bh, HQ=HQ, H=H, G=G, V=V, BN=BN, BG=BG, BV=BV, PREC=PREC)
    else:
        _dec_range(Q, KW, VW, POS, OW, LW, S, NW, CW, scale, l, d, w, NSW, CHW, i - NP - NSC, i_bh, HQ=HQ, H=H, G=G, K=K, V=V,
                   MODE=WMODE, BN=BN, BG=BG, BK=BK, BV=BV, WRITE_S=False, COUNT=COUNT, PREC=PREC)
    _pdl_exit(PDL)

WIN_AT = 3     # the window's chunks in launch 1, 2 or 3 (3: beside the picks)
K2_WARPS = 8
def nsa_decode_2pass(q, lc, pos, g, cfg, scale=None, count=True, win_at=None, k2_warps=None, waves=None):
    B, HQ, K = q.shape
    H, N, V = lc.kc.shape[1], lc.kc.shape[2], lc.vc.shape[-1]
    G, dev, f32, np2 = HQ // H, q.device, torch.float32, triton.next_power_of_2
    scale = scale or 1 / math.sqrt(K)
    q, g = q.contiguous(), g.contiguous()
    win_at, k2_warps = win_at or WIN_AT, k2_warps or K2_WARPS
    BN, nw = (16, 1) if INTERPRET else (D.RANGE_BN, 4)
    R = B * H
    meta = dict(HQ=HQ, H=H, G=G, K=K, V=V, BG=max(16, np2(G)), BK=max(16, np2(K)), BV=max(16, np2(V)), PREC='ieee' if q.dtype == f32 else 'tf32')
    pdl = dict(PDL=True, launch_pdl=True) if _use_pdl(dev) else dict(PDL=False)
    new = lambda *s, dtype=f32: torch.empty(*s, device=dev, dtype=dtype)
    old_w = D.SPLIT_WAVES
    if waves: D.SPLIT_WAVES = waves
    CHc, NSc = _split(N, BN, R, dev)
    D.SPLIT_WAVES = old_w
    Cw = lc.k[2].shape[2]
    CHw, NSw = _split(min(cfg.w, Cw), BN, R, dev)
    o_c, l_c, s_c, n_c = new(B, HQ, NSc, V), new(B, HQ, NSc), new(B, HQ, N), new(R, NSc, dtype=torch.int32)
    o_w, l_w, n_w = new(B, HQ, NSw, V), new(B, HQ, NSw), new(R, NSw, dtype=torch.int32)
    WM = 1 if lc.shared else 2
    wargs = (lc.k[2], lc.v[2], o_w, l_w, n_w, NSw, CHw, Cw)
    st = {} if INTERPRET else dict(num_stages=_range_stages(K, V, q.element_size()))
    _k1[(R, NSc + (NSw if win_at == 1 else 0))](q, lc.kc, l_c, s_c, n_c, NSc, CHc, *wargs, pos, N, scale, cfg.l, cfg.d, cfg.w,
        WMODE=WM, BN=BN, COUNT=count, **meta, **pdl, num_warps=nw, **st)
    n_slc, BJ = triton.cdiv(lc.max_len, cfg.l_sel), max(16 if INTERPRET else D.SCORE_BLOCKS, np2(cfg.n_sel))
    NP1 = triton.cdiv(n_slc, BJ)
    SUBS = np2(max(triton.cdiv(NP1 * cfg.n_sel, 32 if INTERPRET else D.MAX_CANDIDATES), triton.cdiv(NP1, D.MAX_LISTS)))
    NP = triton.cdiv(n_slc, SUBS * BJ)
    SU = cfg.l_sel // cfg.d
    M = NP * cfg.n_sel
    c_v, c_i = new(R, M), new(R, M, dtype=torch.int32)
    NSELP = max(16, np2(cfg.n_sel))
    _k2[(R, NP + NSc + (NSw if win_at == 2 else 0))](s_c, l_c, pos, c_v, c_i, N, n_slc, cfg.l, cfg.d, cfg.l_sel, cfg.n_init, cfg.n_local, NSc, CHc, NP,
        lc.vc, o_c, q, *wargs, scale, cfg.w,
        NSP=np2(NSc), SU=SU, LU=cfg.l // cfg.d, BJ=BJ, SUBS=SUBS, NSEL=cfg.n_sel, NSELP=NSELP,
        OWN_LOAD=D.SCORE_OWN_LOAD and SU & (SU - 1) == 0, BN=BN, WMODE=WM, COUNT=count, **meta, **pdl, num_warps=nw if INTERPRET else k2_warps, **st)
    idx = new(R, cfg.n_sel, dtype=torch.int32)
    o_s, l_s, n_s = new(B, HQ, cfg.n_sel, V), new(B, HQ, cfg.n_sel), new(R, cfg.n_sel, dtype=torch.int32)
    win_sel = win_at == 3
    _dec_sel_kernel[(R, cfg.n_sel + (NSw if win_sel else 0))](q, lc.k[1], lc.v[1], c_v, c_i, idx, pos, o_s, l_s, n_s, lc.max_len, scale, cfg.l_sel, M,
        *wargs, cfg.l, cfg.d, cfg.w, WIN=win_sel, ROW_FIRST=True, WMODE=WM, BN=BN,
        NSEL=cfg.n_sel, MP=max(16, np2(M)), CB=16 if INTERPRET else 32, NPL=NP if M > D.RANK_PICK else 0, NSELP=NSELP,
        BS=max(16, np2(cfg.l_sel)), COUNT=count, **meta, num_warps=nw, **pdl, **(dict(num_stages=D.SEL_STAGES) if D.SEL_STAGES and not INTERPRET else {}))
    out = torch.empty(B, HQ, V, device=dev, dtype=q.dtype)
    _dec_combine_kernel[(B * HQ,)](o_c, l_c, o_s, l_s, o_w, l_w, g, out, NSc, cfg.n_sel, NSw, V=V, NSPC=np2(NSc),
                                   NSPS=np2(cfg.n_sel), NSPW=np2(NSw), BV=meta['BV'], num_warps=1 if NSc + cfg.n_sel + NSw <= D.COMBINE_WARP_PARTIALS else nw, **pdl)
    reads = torch.stack([n_c.sum(-1), n_s.sum(-1), n_w.sum(-1)], -1).view(B, H, 3).long() if count else None
    return out, idx.view(B, H, cfg.n_sel), reads
