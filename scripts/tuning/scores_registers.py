"""Registers, stack, shared memory and instruction counts of the selection-scores kernel compiled ahead of time for a
Hopper GPU (sm_90) on a machine without one: Triton compiles to a cubin and its bundled cuobjdump reads the resource use
and the SASS. Both top-n paths (in the walk, `fused`; and the score buffer for the separate kernel), with and without
packed documents, at the launch choices `select_blocks_triton` makes on a GPU (`ScoresTuning()`). The counts are static:
the kernel's two copies of the walk's step (with and without the visibility mask) and, fused, the merge's sorts.
Usage: python3 scripts/tuning/scores_registers.py [--base FILE] [HQ,H,K[,n_sel] ...]  (default: the paper's heads, the
125M model's, K=192, and one head per group; a few seconds a kernel). FILE: another version of the module (as
`ab_scores.py` takes it), compiled beside the package's."""
import os, re, sys, argparse, collections, subprocess, tempfile
import triton
from triton.compiler import ASTSource
from triton.backends.compiler import GPUTarget
import nsa_nb.kernels.nsa as kn
from nsa_nb.kernels.banded import head_tiles, padded
from nsa_nb.config import NSAConfig
from _common import load_module

CUOBJDUMP = os.path.join(os.path.dirname(triton.__file__), 'backends', 'nvidia', 'bin', 'cuobjdump')
OPS = ('SHFL', 'MUFU', 'FADD', 'STS', 'BAR', 'HGMMA')   # shuffles, exp2, adds, shared stores, barriers, MMAs

def compile_scores(HQ, H, K, n_sel, fused, docs, cfg=NSAConfig(), mod=kn):
    "The compiled `_sel_scores_kernel` of module `mod` for bf16 inputs, with `select_blocks_triton`'s constants."
    tune = mod.ScoresTuning()
    G, GP = HQ // H, triton.next_power_of_2(HQ // H)
    SU, LU = cfg.l_sel // cfg.d, cfg.l // cfg.d
    BK, BK2 = head_tiles(K)
    MU = -(-(LU - 1) // SU)
    BT, BJ = max(1, tune.rows // GP), max(triton.next_power_of_2(max(MU, 1)), tune.step // SU)
    sig = dict(Q='*bf16', KC='*bf16', LSE='*fp32', SC='*i32' if fused else '*fp32', IDX='*i32', DS='*i32', FIRST='*i32',
               **{a: 'i32' for a in ('T', 'N', 'n_slc', 't_start', 'q0', 'Tc')}, scale='fp32',
               **{a: 'i32' for a in ('l', 'd', 'l_sel', 'n_init', 'n_local')})
    const = dict(HQ=HQ, H=H, G=G, GP=GP, K=K, SU=SU, LU=LU, MU=MU, BT=BT, BJ=BJ, BK=BK, BK2=BK2, PREC='tf32', DOCS=docs,
                 NSEL=n_sel, W=max(padded(n_sel), BJ), FUSED=fused)
    sig |= {a: 'constexpr' for a in const}
    # as a launch specializes them: pointers 16-byte aligned, the lengths multiples of 16 (vectorized, pipelined loads)
    div16 = [i for i, (a, t) in enumerate(sig.items()) if t.startswith('*') or a in ('T', 'N', 'n_slc', 'Tc', 'l', 'd', 'l_sel')]
    src = ASTSource(mod._sel_scores_kernel, sig, constexprs={(list(sig).index(a),): v for a, v in const.items()},
                    attrs={(i,): [['tt.divisibility', 16]] for i in div16})
    return triton.compile(src, target=GPUTarget('cuda', 90, 32),
                          options=dict(num_warps=getattr(tune, 'warps', 8), num_stages=tune.stages))

def resources(compiled) -> str:
    """cuobjdump's `REG:.. STACK:.. SHARED:.. LOCAL:..` of the kernel, then its SASS instructions: OPS' counts, the total,
    and the instructions of the walk's unmasked step (the first loop's body; fused: the merge's sorts included)."""
    with tempfile.NamedTemporaryFile(suffix='.cubin') as f:
        f.write(compiled.asm['cubin']); f.flush()
        out = subprocess.run([CUOBJDUMP, '--dump-resource-usage', f.name], capture_output=True, text=True).stdout
        sass = subprocess.run([CUOBJDUMP, '-sass', f.name], capture_output=True, text=True).stdout
    m = re.search(r'REG:\d+ STACK:\d+ SHARED:\d+ LOCAL:\d+', out)
    ins = [(int(a, 16), op.split()[-1].split('.')[0], rest) for a, op, rest in
           re.findall(r'/\*([0-9a-f]{4,})\*/\s+((?:@!?U?P\w+\s+)?[A-Z][A-Z0-9_.]*)([^;]*);', sass)]
    ops = collections.Counter(op for _, op, _ in ins)
    # the first loop's body (the unmasked step): from a backward branch's target to the branch
    back = [(int(t.group(1), 16), a) for a, op, rest in ins if op == 'BRA' and (t := re.search(r'0x([0-9a-f]+)', rest))
            and int(t.group(1), 16) < a]
    step = sum(lo <= a <= hi for a, _, _ in ins for lo, hi in back[:1])
    return ((m.group(0) if m else out[-300:]) + ' ' + ' '.join(f'{o}:{ops[o]}' for o in OPS) + f' all:{sum(ops.values())}'
            + f' step:{step}')

if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--base'); ap.add_argument('shapes', nargs='*')
    a = ap.parse_intermixed_args()   # shapes before or after the options
    mods = ([('base', load_module(a.base))] if a.base else []) + [('package', kn)]
    for spec in a.shapes or ['64,4,128', '12,2,64', '64,4,192', '4,4,64']:
        HQ, H, K, *n = map(int, spec.split(','))
        for docs in (False, True):
            for fused in (False, True):
                for name, mod in mods:
                    print(f"HQ={HQ} H={H} K={K} n_sel={n[0] if n else 16} docs={docs} fused={fused} {name}: "
                          f"{resources(compile_scores(HQ, H, K, n[0] if n else 16, fused, docs, mod=mod))}", flush=True)
