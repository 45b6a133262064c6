# prototype: the whole decode step in one launch of ticketed programs with per-row counters
import math, torch, triton, triton.language as tl
import nsa_nb.decode as D
from nsa_nb.decode import _dec_range, _dec_sel, _n_before, _pick_store, _merge_splits, _rank, _by_rank, _merge_best, INTERPRET, _split, _range_stages

@triton.jit
def _signal(CTR):
    "Publish this program's writes, then count one more done item in CTR."
    tl.debug_barrier()
    tl.atomic_add(CTR, 1, sem='release', scope='gpu')

@triton.jit
def _nap(x, NS: tl.constexpr):
    return tl.inline_asm_elementwise(f"nanosleep.u32 {NS}; mov.u32 $0, $1;", "=r,r", [x], dtype=tl.int32, is_pure=False, pack=1)

@triton.jit
def _wait(CTR, n, NAP: tl.constexpr):
    "Spin until CTR counts n done items; their writes are then visible."
    if NAP > 0:                                                     # poll with plain loads, a nap between, then one acquire
        seen = tl.load(CTR, volatile=True)
        while seen < n:
            seen = _nap(tl.load(CTR, volatile=True), NAP)
        seen = tl.atomic_add(CTR, 0, sem='acquire', scope='gpu')
    else:
        seen = tl.atomic_add(CTR, 0, sem='acquire', scope='gpu')
        while seen < n:
            seen = tl.atomic_add(CTR, 0, sem='acquire', scope='gpu')
    tl.debug_barrier()

@triton.jit
def _merged(CV, CI, i_bh, M, NPL: tl.constexpr, NSEL: tl.constexpr, NSELP: tl.constexpr, MP: tl.constexpr, CB: tl.constexpr):
    "Row i_bh's candidates (v, ix) and their ranks."
    if NPL > 0:
        o_k = tl.arange(0, NSELP)
        base = i_bh * NPL * NSEL
        v = tl.load(CV + base + o_k, mask=o_k < NSEL, other=float('-inf'))
        ix = tl.load(CI + base + o_k, mask=o_k < NSEL, other=1073741824)
        if NPL > 2:
            v_odd = tl.load(CV + base + NSEL + o_k, mask=o_k < NSEL, other=float('-inf'))
            i_odd = tl.load(CI + base + NSEL + o_k, mask=o_k < NSEL, other=1073741824)
        for q in tl.static_range(1 if NPL <= 2 else 2, NPL):
            v2 = tl.load(CV + base + q * NSEL + o_k, mask=o_k < NSEL, other=float('-inf'))
            i2 = tl.load(CI + base + q * NSEL + o_k, mask=o_k < NSEL, other=1073741824)
            if NPL > 2 and q % 2 == 1: v_odd, i_odd = _merge_best(v_odd, i_odd, v2, i2, o_k, NSEL)
            else: v, ix = _merge_best(v, ix, v2, i2, o_k, NSEL)
        if NPL > 2: v, ix = _merge_best(v, ix, v_odd, i_odd, o_k, NSEL)
        return v, ix, o_k
    else:
        o_m = tl.arange(0, MP)
        v = tl.load(CV + i_bh * M + o_m, mask=o_m < M, other=float('-inf'))
        ix = tl.load(CI + i_bh * M + o_m, mask=o_m < M, other=1073741824)
        rank = tl.zeros([MP], tl.int32)
        for c0 in tl.static_range(0, MP, CB):
            o_c = c0 + tl.arange(0, CB)
            v_c = tl.load(CV + i_bh * M + o_c, mask=o_c < M, other=float('-inf'))
            i_c = tl.load(CI + i_bh * M + o_c, mask=o_c < M, other=1073741824)
            rank += _n_before(v, ix, v_c, i_c)
        return v, ix, rank

@triton.jit
def _dec_sel_group(Q, KS, VS, CV, CI, IDX, POS, O, LSE, CNT, C, scale, l_sel, M, i_n0, i_bh,
             HQ: tl.constexpr, H: tl.constexpr, G: tl.constexpr, K: tl.constexpr, V: tl.constexpr, NSEL: tl.constexpr, MP: tl.constexpr,
             BG: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr, BS: tl.constexpr, COUNT: tl.constexpr, PREC: tl.constexpr,
             CB: tl.constexpr, NPL: tl.constexpr, NSELP: tl.constexpr, NB: tl.constexpr):
    "Selected slots i_n0 .. i_n0+NB-1 of row i_bh: the row's candidates merged once, then each slot's block."
    i_b, i_h = (i_bh // H).to(tl.int64), i_bh % H
    p = tl.load(POS + i_b)
    v, ix, rank = _merged(CV, CI, i_bh, M, NPL, NSEL, NSELP, MP, CB)
    o_g, o_k, o_v = tl.arange(0, BG), tl.arange(0, BK), tl.arange(0, BV)
    m_g = o_g < G
    row = i_b * HQ + i_h * G + o_g
    b_q = tl.load(Q + row[:, None] * K + o_k[None, :], mask=m_g[:, None] & (o_k < K)[None, :], other=0.)
    base = (i_b * H + i_h) * C
    o_t = tl.arange(0, BS)
    for u in tl.static_range(NB):
        i_n = i_n0 + u
        if i_n < NSEL:
            j = _pick_store(v, ix, rank, IDX, i_n, i_bh, NSEL)
            o_s = tl.maximum(j, 0) * l_sel + o_t
            m_s = (o_t < l_sel) & (o_s <= p) & (j >= 0)
            b_k = tl.load(KS + (base + o_s)[None, :] * K + o_k[:, None], mask=m_s[None, :] & (o_k < K)[:, None], other=0.)
            b_v = tl.load(VS + (base + o_s)[:, None] * V + o_v[None, :], mask=m_s[:, None] & (o_v < V)[None, :], other=0.)
            b_s = tl.where(m_s[None, :], tl.dot(b_q, b_k, input_precision=PREC) * (scale * 1.4426950408889634), float('-inf'))
            b_m = tl.max(b_s, 1)
            m_safe = tl.where(b_m == float('-inf'), 0., b_m)
            b_p = tl.exp2(b_s - m_safe[:, None])
            b_l = tl.sum(b_p, 1)
            b_o = tl.dot(b_p.to(b_v.dtype), b_v, input_precision=PREC) / tl.where(b_l == 0., 1., b_l)[:, None]
            tl.store(O + (row * NSEL + i_n)[:, None] * V + o_v[None, :], b_o, mask=m_g[:, None] & (o_v < V)[None, :])
            tl.store(LSE + row * NSEL + i_n, tl.where(b_l == 0., float('-inf'), (b_m + tl.log2(tl.where(b_l == 0., 1., b_l))) * 0.6931471805599453), mask=m_g)
            if COUNT: tl.store(CNT + i_bh * NSEL + i_n, tl.sum(m_s.to(tl.int32), 0))

@triton.jit
def _dec_scores(S, LSE, POS, CV, CI, C, n_slc, l, d, l_sel, n_init, n_local, NS, i_j, i_bh, NPROG,
                HQ: tl.constexpr, H: tl.constexpr, G: tl.constexpr, NSP: tl.constexpr,
                SU: tl.constexpr, LU: tl.constexpr, BG: tl.constexpr, BJ: tl.constexpr, SUBS: tl.constexpr,
                NSEL: tl.constexpr, NSELP: tl.constexpr, OWN_LOAD: tl.constexpr):
    i_b, i_h = (i_bh // H).to(tl.int64), i_bh % H
    p = tl.load(POS + i_b)
    n_vis = tl.where(p + 1 >= l, (p + 1 - l) // d + 1, 0)
    o_g, o_n = tl.arange(0, BG), tl.arange(0, NSP)
    m_g = o_g < G
    row = i_b * HQ + i_h * G + o_g
    b_lp = tl.load(LSE + row[:, None] * NS + o_n[None, :], mask=m_g[:, None] & (o_n < NS)[None, :], other=float('-inf'))
    b_mx = tl.max(b_lp, 1)
    b_mx = tl.where(b_mx == float('-inf'), 0., b_mx)
    b_z = tl.sum(tl.exp(b_lp - b_mx[:, None]), 1)
    b_lse = tl.where(b_z == 0., float('-inf'), b_mx + tl.log(tl.where(b_z == 0., 1., b_z)))
    cur = p // l_sel
    prog = i_bh * NPROG + i_j
    o_k = tl.arange(0, NSELP)
    for u in tl.static_range(SUBS):
        j0 = (i_j * SUBS + u) * BJ
        o_j = j0 + tl.arange(0, BJ)
        b_acc = tl.zeros([BG, BJ], tl.float32)
        if OWN_LOAD:
            o_e = j0 * SU + tl.arange(0, BJ * SU)
            m_e = m_g[:, None] & (o_e < n_vis)[None, :]
            b_p = tl.where(m_e, tl.exp(tl.load(S + row[:, None] * C + o_e[None, :], mask=m_e, other=0.) - b_lse[:, None]), 0.)
            o_q = tl.arange(0, SU)
            w_q = (tl.minimum(o_q + LU, SU) - o_q).to(tl.float32)
            b_acc += tl.sum(tl.reshape(b_p, [BG, BJ, SU]) * w_q[None, None, :], 2)
        for r in tl.static_range(LU - 1 if OWN_LOAD else SU + LU - 1):
            o_i = o_j * SU - LU + 1 + r
            m_i = m_g[:, None] & ((o_i >= 0) & (o_i < n_vis))[None, :]
            b_s = tl.load(S + row[:, None] * C + o_i[None, :], mask=m_i, other=0.)
            b_acc += (min(r + 1, SU) - max(r + 1 - LU, 0)) * tl.where(m_i, tl.exp(b_s - b_lse[:, None]), 0.)
        b_sc = tl.sum(b_acc, 0)
        visible = o_j <= cur
        forced = (o_j < n_init) | ((o_j > cur - n_local) & visible)
        b_sc = tl.where(visible, tl.where(forced, float('inf'), b_sc), float('-inf'))
        rank = _rank(b_sc, o_j)
        if SUBS == 1:
            tl.store(CV + prog * NSEL + rank, b_sc, mask=rank < NSEL)
            tl.store(CI + prog * NSEL + rank, o_j, mask=rank < NSEL)
        elif u == 0: v, ix = _by_rank(b_sc, o_j, rank, o_k)
        else: v, ix = _merge_best(v, ix, *_by_rank(b_sc, o_j, rank, o_k), o_k, NSEL)
    if SUBS > 1:
        tl.store(CV + prog * NSEL + o_k, v, mask=o_k < NSEL)
        tl.store(CI + prog * NSEL + o_k, ix, mask=o_k < NSEL)

@triton.jit
def _dec_combine(OC, LC, OS, LS, OW, LW, GATE, OUT, NSC, NSS, NSW, row,
                 V: tl.constexpr, NSPC: tl.constexpr, NSPS: tl.constexpr, NSPW: tl.constexpr, BV: tl.constexpr):
    o_v = tl.arange(0, BV)
    b_o = tl.load(GATE + row * 3).to(tl.float32) * _merge_splits(OC, LC, row, NSC, NSPC, V, BV)
    b_o += tl.load(GATE + row * 3 + 1).to(tl.float32) * _merge_splits(OS, LS, row, NSS, NSPS, V, BV)
    b_o += tl.load(GATE + row * 3 + 2).to(tl.float32) * _merge_splits(OW, LW, row, NSW, NSPW, V, BV)
    tl.store(OUT + row * V + o_v, b_o.to(OUT.dtype.element_ty), mask=o_v < V)

@triton.jit
def _dec_step_kernel(TICKET, DONE, R, LAG,
                     Q, KC, VC, OC, LC, S, NC, NSC, CHC,
                     KW, VW, OW, LW, NW, NSW, CHW, CW,
                     POS, C, scale, l, d, w,
                     CV, CI, n_slc, l_sel, n_init, n_local, NP,
                     KS, VS, IDX, OS, LS, NS_, CS, M,
                     GATE, OUT,
                     HQ: tl.constexpr, H: tl.constexpr, G: tl.constexpr, K: tl.constexpr, V: tl.constexpr,
                     WMODE: tl.constexpr, BN: tl.constexpr, BG: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr,
                     COUNT: tl.constexpr, PREC: tl.constexpr,
                     NSPC: tl.constexpr, NSPW: tl.constexpr, SU: tl.constexpr, LU: tl.constexpr, BJ: tl.constexpr, SUBS: tl.constexpr,
                     NSEL: tl.constexpr, NSELP: tl.constexpr, OWN_LOAD: tl.constexpr,
                     MP: tl.constexpr, BS: tl.constexpr, CB: tl.constexpr, NPL: tl.constexpr, PHASES: tl.constexpr, NB: tl.constexpr, CG: tl.constexpr, NAP: tl.constexpr):
    "Ticket t (the order programs start in): step k = t // STEP, whose items are row k's compressed and window chunks, row k-LAG's scores, row k-2LAG's selected slots, row k-3LAG's gated sums."
    t = tl.atomic_add(TICKET, 1)
    NSELI = (NSEL + NB - 1) // NB
    NCI = (G + CG - 1) // CG
    STEP = NSC + NSW + NP + NSELI + NCI
    k, off = t // STEP, t % STEP
    if off < NSC:
        if k < R:
            _dec_range(Q, KC, VC, POS, OC, LC, S, NC, C, scale, l, d, w, NSC, CHC, off, k, HQ=HQ, H=H, G=G, K=K, V=V,
                       MODE=0, BN=BN, BG=BG, BK=BK, BV=BV, WRITE_S=True, COUNT=COUNT, PREC=PREC)
            _signal(DONE + k)
    elif off < NSC + NSW:
        if k < R:
            _dec_range(Q, KW, VW, POS, OW, LW, S, NW, CW, scale, l, d, w, NSW, CHW, off - NSC, k, HQ=HQ, H=H, G=G, K=K, V=V,
                       MODE=WMODE, BN=BN, BG=BG, BK=BK, BV=BV, WRITE_S=False, COUNT=COUNT, PREC=PREC)
            _signal(DONE + 2 * R + k)
    elif off < NSC + NSW + NP:
        r = k - LAG
        if (r >= 0) & (r < R) & (PHASES >= 2):
            _wait(DONE + r, NSC, NAP)
            _dec_scores(S, LC, POS, CV, CI, C, n_slc, l, d, l_sel, n_init, n_local, NSC, off - NSC - NSW, r, NP,
                        HQ=HQ, H=H, G=G, NSP=NSPC, SU=SU, LU=LU, BG=BG, BJ=BJ, SUBS=SUBS, NSEL=NSEL, NSELP=NSELP, OWN_LOAD=OWN_LOAD)
            _signal(DONE + R + r)
    elif off < NSC + NSW + NP + NSELI:
        r = k - 2 * LAG
        if (r >= 0) & (r < R) & (PHASES >= 3):
            _wait(DONE + R + r, NP, NAP)
            _dec_sel_group(Q, KS, VS, CV, CI, IDX, POS, OS, LS, NS_, CS, scale, l_sel, M, (off - NSC - NSW - NP) * NB, r,
                     HQ=HQ, H=H, G=G, K=K, V=V, NSEL=NSEL, MP=MP, BG=BG, BK=BK, BV=BV, BS=BS, COUNT=COUNT, PREC=PREC,
                     CB=CB, NPL=NPL, NSELP=NSELP, NB=NB)
            _signal(DONE + 2 * R + r)
    else:
        r = k - 3 * LAG
        if (r >= 0) & (r < R) & (PHASES >= 4):
            _wait(DONE + 2 * R + r, NSELI + NSW, NAP)
            h0 = (off - NSC - NSW - NP - NSELI) * CG
            for u in tl.static_range(CG):
                if h0 + u < G:
                    row = ((r // H) * HQ + (r % H) * G + h0 + u).to(tl.int64)
                    _dec_combine(OC, LC, OS, LS, OW, LW, GATE, OUT, NSC, NSEL, NSW, row, V=V, NSPC=NSPC, NSPS=NSELP, NSPW=NSPW, BV=BV)

LAG = 2
LAST = [None]
NAP = 100
WARPS = 4
def nsa_decode_fused(q, lc, pos, g, cfg, scale=None, count=True, lag=None, phases=4, nb=1, cg=1, np_row=None, nap=None):
    B, HQ, K = q.shape
    H, N, V = lc.kc.shape[1], lc.kc.shape[2], lc.vc.shape[-1]
    G, dev, f32, np2 = HQ // H, q.device, torch.float32, triton.next_power_of_2
    scale = scale or 1 / math.sqrt(K)
    q, g = q.contiguous(), g.contiguous()
    BN, nw = (16, 1) if INTERPRET else (D.RANGE_BN, 4)
    R = B * H
    new = lambda *s, dtype=f32: torch.empty(*s, device=dev, dtype=dtype)
    CHc, NSc = _split(N, BN, R, dev)
    Cw = lc.k[2].shape[2]
    CHw, NSw = _split(min(cfg.w, Cw), BN, R, dev)
    o_c, l_c, s_c, n_c = new(B, HQ, NSc, V), new(B, HQ, NSc), new(B, HQ, N), new(R, NSc, dtype=torch.int32)
    o_w, l_w, n_w = new(B, HQ, NSw, V), new(B, HQ, NSw), new(R, NSw, dtype=torch.int32)
    n_slc, BJ = triton.cdiv(lc.max_len, cfg.l_sel), max(16 if INTERPRET else D.SCORE_BLOCKS, np2(cfg.n_sel))
    NP1 = triton.cdiv(n_slc, BJ)
    SUBS = np2(max(triton.cdiv(NP1 * cfg.n_sel, 32 if INTERPRET else D.MAX_CANDIDATES), triton.cdiv(NP1, D.MAX_LISTS)))
    if np_row: SUBS = max(SUBS, np2(triton.cdiv(NP1, np_row)))
    NP = triton.cdiv(n_slc, SUBS * BJ)
    SU = cfg.l_sel // cfg.d
    M = NP * cfg.n_sel
    c_v, c_i = new(R, M), new(R, M, dtype=torch.int32)
    NSELP = max(16, np2(cfg.n_sel))
    idx = new(R, cfg.n_sel, dtype=torch.int32)
    o_s, l_s, n_s = new(B, HQ, cfg.n_sel, V), new(B, HQ, cfg.n_sel), new(R, cfg.n_sel, dtype=torch.int32)
    out = torch.empty(B, HQ, V, device=dev, dtype=q.dtype)
    ctr = torch.zeros(1 + 3 * R, device=dev, dtype=torch.int32)
    lag = LAG if lag is None else lag
    STEP = NSc + NSw + NP + triton.cdiv(cfg.n_sel, nb) + triton.cdiv(G, cg)
    grid = (STEP * (R + 3 * lag),)
    LAST[0] = _dec_step_kernel[grid](ctr, ctr[1:], R, lag,
        q, lc.kc, lc.vc, o_c, l_c, s_c, n_c, NSc, CHc, lc.k[2], lc.v[2], o_w, l_w, n_w, NSw, CHw, Cw,
        pos, N, scale, cfg.l, cfg.d, cfg.w,
        c_v, c_i, n_slc, cfg.l_sel, cfg.n_init, cfg.n_local, NP,
        lc.k[1], lc.v[1], idx, o_s, l_s, n_s, lc.max_len, M, g, out,
        HQ=HQ, H=H, G=G, K=K, V=V, WMODE=1 if lc.shared else 2, BN=BN, BG=max(16, np2(G)), BK=max(16, np2(K)), BV=max(16, np2(V)),
        COUNT=count, PREC='ieee' if q.dtype == f32 else 'tf32', NSPC=np2(NSc), NSPW=np2(NSw), SU=SU, LU=cfg.l // cfg.d, BJ=BJ, SUBS=SUBS,
        NSEL=cfg.n_sel, NSELP=NSELP, OWN_LOAD=D.SCORE_OWN_LOAD and SU & (SU - 1) == 0,
        MP=max(16, np2(M)), BS=max(16, np2(cfg.l_sel)), CB=16 if INTERPRET else 32, NPL=NP if M > D.RANK_PICK else 0, PHASES=phases, NB=nb, CG=cg, NAP=0 if INTERPRET else (NAP if nap is None else nap),
        num_warps=1 if INTERPRET else WARPS, **({} if INTERPRET else dict(num_stages=_range_stages(K, V, q.element_size()))))
    reads = torch.stack([n_c.sum(-1), n_s.sum(-1), n_w.sum(-1)], -1).view(B, H, 3).long() if count else None
    return out, idx.view(B, H, cfg.n_sel), reads
