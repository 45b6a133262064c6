"""Registers, stack and shared memory of the selection-scores kernel compiled ahead of time for a Hopper GPU (sm_90) on a
machine without one: Triton compiles to a cubin and its bundled cuobjdump reads the resource use. Both top-n paths
(in the walk, `fused`; and the score buffer for the separate kernel), with and without packed documents, at the launch
choices `select_blocks_triton` makes on a GPU (`ScoresTuning()`).
Usage: python3 scripts/tuning/scores_registers.py [HQ,H,K[,n_sel] ...]  (default: the paper's heads, the 125M model's,
K=192, and one head per group); a few seconds a kernel."""
import os, re, sys, subprocess, tempfile
import triton
from triton.compiler import ASTSource
from triton.backends.compiler import GPUTarget
import nsa_nb.kernels.nsa as kn
from nsa_nb.kernels.banded import head_tiles, padded
from nsa_nb.config import NSAConfig

CUOBJDUMP = os.path.join(os.path.dirname(triton.__file__), 'backends', 'nvidia', 'bin', 'cuobjdump')

def compile_scores(HQ, H, K, n_sel, fused, docs, cfg=NSAConfig(), tune=kn.ScoresTuning()):
    "The compiled `_sel_scores_kernel` for bf16 inputs, with `select_blocks_triton`'s constants."
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
    src = ASTSource(kn._sel_scores_kernel, sig, constexprs={(list(sig).index(a),): v for a, v in const.items()})
    return triton.compile(src, target=GPUTarget('cuda', 90, 32), options=dict(num_warps=8, num_stages=tune.stages))

def resources(compiled) -> str:
    "cuobjdump's `REG:.. STACK:.. SHARED:.. LOCAL:..` of the kernel."
    with tempfile.NamedTemporaryFile(suffix='.cubin') as f:
        f.write(compiled.asm['cubin']); f.flush()
        out = subprocess.run([CUOBJDUMP, '--dump-resource-usage', f.name], capture_output=True, text=True).stdout
    m = re.search(r'REG:\d+ STACK:\d+ SHARED:\d+ LOCAL:\d+', out)
    return m.group(0) if m else out[-300:]

if __name__ == '__main__':
    for spec in sys.argv[1:] or ['64,4,128', '12,2,64', '64,4,192', '4,4,64']:
        HQ, H, K, *n = map(int, spec.split(','))
        for docs in (False, True):
            for fused in (False, True):
                print(f"HQ={HQ} H={H} K={K} n_sel={n[0] if n else 16} docs={docs} fused={fused}: "
                      f"{resources(compile_scores(HQ, H, K, n[0] if n else 16, fused, docs))}", flush=True)
