# prototype: the selected-block launch with NB slots per program (one merge of the row's candidate lists per program, not per slot)
import torch, triton, triton.language as tl
import nsa_nb.decode as D
from nsa_nb.decode import _dec_range, _pdl_enter, _pdl_exit, _chunk_row
from proto_onelaunch import _dec_sel_group

@triton.jit
def _dec_selg_kernel(Q, KS, VS, CV, CI, IDX, POS, O, LSE, CNT, C, scale, l_sel, M,
                    KW, VW, OW, LW, NW, NSW, CHW, CW, l, d, w,
                    HQ: tl.constexpr, H: tl.constexpr, G: tl.constexpr, K: tl.constexpr, V: tl.constexpr, NSEL: tl.constexpr, MP: tl.constexpr,
                    BG: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr, BS: tl.constexpr, COUNT: tl.constexpr, PREC: tl.constexpr,
                    CB: tl.constexpr, NPL: tl.constexpr, NSELP: tl.constexpr, WIN: tl.constexpr, WMODE: tl.constexpr, BN: tl.constexpr,
                    ROW_FIRST: tl.constexpr, PDL: tl.constexpr, NB: tl.constexpr):
    _pdl_enter(PDL)
    i_n, i_bh = _chunk_row(ROW_FIRST)
    NG = (NSEL + NB - 1) // NB
    if i_n < NG:
        _dec_sel_group(Q, KS, VS, CV, CI, IDX, POS, O, LSE, CNT, C, scale, l_sel, M, i_n * NB, i_bh, HQ=HQ, H=H, G=G, K=K, V=V, NSEL=NSEL, MP=MP,
                       BG=BG, BK=BK, BV=BV, BS=BS, COUNT=COUNT, PREC=PREC, CB=CB, NPL=NPL, NSELP=NSELP, NB=NB)
    elif WIN:
        _dec_range(Q, KW, VW, POS, OW, LW, OW, NW, CW, scale, l, d, w, NSW, CHW, i_n - NG, i_bh, HQ=HQ, H=H, G=G, K=K, V=V,
                   MODE=WMODE, BN=BN, BG=BG, BK=BK, BV=BV, WRITE_S=False, COUNT=COUNT, PREC=PREC)
    _pdl_exit(PDL)

class _Launch:
    def __init__(self, nb): self.nb = nb
    def __getitem__(self, grid):
        def launch(*args, **kw):
            R, n = grid if D.ROW_FIRST else grid[::-1]
            NSEL = kw['NSEL']
            n2 = triton.cdiv(NSEL, self.nb) + (n - NSEL)
            g2 = (R, n2) if D.ROW_FIRST else (n2, R)
            return _dec_selg_kernel[g2](*args, NB=self.nb, **kw)
        return launch

_orig = D._dec_sel_kernel
def decode_nb(nb, *args, **kw):
    "nsa_decode_triton with NB slots per selected-block program (nb=0: the tree's own kernel)."
    D._dec_sel_kernel = _Launch(nb) if nb else _orig
    try: return D.nsa_decode_triton(*args, **kw)
    finally: D._dec_sel_kernel = _orig
