"""Per-kernel GPU time of one NSA attention forward+backward (NSAttention's Triton path, `nsa_attention_triton`), by kernel
name, from torch.profiler over 3 steps after 3 warm-up steps, bf16, random inputs, one GPU; under a minute per shape.
Then the same shape's causal SDPA forward+backward (torch's default backend: cuDNN on an H100), for comparison.
With --docs, each shape runs twice: without documents, then with packed documents of FineWeb-Edu's lengths
(`sample_doc_cu_seqlens`, notebook 08), and the operators that take the most host time per call. Each run also prints
its wall time per call: above the kernels' sum, the GPU waited for the host. With --out FILE.json, the shapes' rows (without
documents) are also written there as results/kernels/long_profile.json's: the 18 largest kernels, cuDNN's time and the
branch sums notebook 12 reads (an existing file keeps its title and notes).
Usage: python3 scripts/tuning/profile_kernels.py [--docs] [--out FILE.json] B,T,HQ,H,K[,V],TAG [...] (V defaults to K)
  e.g. 1,65536,64,4,128,paper 16,2048,12,2,64,train2k 1,16384,64,4,192,128,k192"""
import sys, math, torch, json
import nsa_nb.kernels.nsa as kn
from nsa_nb.config import NSAConfig
from nsa_nb.compression import Compressor
from nsa_nb.reference import docs_from_cu
from nsa_nb.data import sample_doc_cu_seqlens
from _common import kernel_times
def run(B, T, HQ, H, K, V, tag, with_docs=False):
    cfg = NSAConfig(); torch.manual_seed(0)
    q = torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16, requires_grad=True)
    ks = [torch.randn(B, T, H, K, device='cuda', dtype=torch.bfloat16, requires_grad=True) for _ in range(3)]
    vs = [torch.randn(B, T, H, V, device='cuda', dtype=torch.bfloat16, requires_grad=True) for _ in range(3)]
    phk, phv = Compressor(cfg.l, cfg.d, K).cuda(), Compressor(cfg.l, cfg.d, V).cuda()
    g = torch.rand(B, T, HQ, 3, device='cuda', dtype=torch.bfloat16, requires_grad=True)
    docs = docs_from_cu(sample_doc_cu_seqlens(B, T).cuda(), B, T) if with_docs else None
    def step():
        o = kn.nsa_attention_triton(q, ks, vs, phk, phv, g, cfg, docs=docs)[0]
        for t in (q, *ks, *vs, g, *phk.parameters(), *phv.parameters()): t.grad = None   # a training step's fresh gradients
        o.backward(torch.ones_like(o))
    rows = kernel_times(step)
    tot = sum(v[0] for v in rows.values())
    wall = wall_ms(step)
    print(f"== {tag}{' with documents' if with_docs else ''} B={B} T={T} HQ={HQ} H={H} K={K} V={V}: {tot:.2f} ms of kernels "
          f"per fwd+bwd, {wall:.2f} ms wall (the GPU idle {max(0., wall - tot):.2f} ms)", flush=True)
    top = sorted(rows.items(), key=lambda x: -x[1][0])[:18]
    for k_, (t, c) in top: print(f"  {t:8.3f} ms {c:4d}x  {k_[:90]}")
    if with_docs: return host_ops(step)
    named = {}                                                           # by the printed name (templates cut at 90)
    for k_, (t, c) in top:
        ms, n = named.get(k_[:90].rstrip(), (0., 0)); named[k_[:90].rstrip()] = [round(ms + t, 3), n + c]
    return branch_row(dict(B=B, T=T, HQ=HQ, H=H, K=K, V=V, nsa_ms=round(tot, 2), nsa_wall_ms=round(wall, 2),
                           kernels=named, cudnn_ms=round(sdpa(B, T, HQ, H, K, V), 3)))

def branch_row(r:dict) -> dict:
    "`r` with its kernels summed by branch: the banded kernels, scores + top-n, the selected branch, the rest."
    ks = r['kernels']; pick = lambda f: round(sum(v[0] for k, v in ks.items() if f(k)), 3)
    r['banded_ms'] = pick(lambda k: k.startswith('_banded_'))
    r['scores_topn_ms'] = pick(lambda k: k in ('_sel_scores_kernel', '_topn_kernel'))
    r['selected_ms'] = pick(lambda k: k.startswith('_sel_') and k != '_sel_scores_kernel')
    r['score_launches'] = ks.get('_sel_scores_kernel', [0., 0])[1]          # 0: not among the 18 largest
    r['other_ms'] = round(r['nsa_ms'] - r['banded_ms'] - r['scores_topn_ms'] - r['selected_ms'], 3)
    return r

def wall_ms(step, n:int=10) -> float:
    "Mean ms per call of `step()` between CUDA events over `n` calls after 3: kernels and whatever the GPU waits for."
    for _ in range(3): step()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize(); a.record()
    for _ in range(n): step()
    b.record(); torch.cuda.synchronize()
    return a.elapsed_time(b) / n

def host_ops(step, top:int=15):
    "The operators that take the most host time per call of `step()` (torch.profiler, CPU activity): where a GPU idles."
    from torch.profiler import profile, ProfilerActivity
    with profile(activities=[ProfilerActivity.CPU]) as p:
        for _ in range(3): step()
    ev = sorted(p.key_averages(), key=lambda e: -e.self_cpu_time_total)[:top]
    for e in ev: print(f"  host {e.self_cpu_time_total / 3 / 1000:8.3f} ms {e.count // 3:4d}x  {e.key[:90]}")

def sdpa(B, T, HQ, H, K, V):
    "Mean ms of SDPA's causal forward+backward with GQA, CUDA events over 10 steps after 3."
    q = torch.randn(B, HQ, T, K, device='cuda', dtype=torch.bfloat16, requires_grad=True)
    k, v = (torch.randn(B, H, T, D, device='cuda', dtype=torch.bfloat16, requires_grad=True) for D in (K, V))
    def step():
        o = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        o.backward(torch.ones_like(o))
    ms = wall_ms(step)
    print(f"  sdpa (default backend) B={B} T={T} fwd+bwd {ms:.3f} ms", flush=True)
    return ms

TITLE = "One NSA layer's attention forward+backward, GPU time per kernel, against cuDNN's"
NOTES = ("bf16, random inputs, each row's B, T and heads (HQ, H, K, V), the paper's NSA settings (l=32, d=16, "
         "l_sel=64, n_sel=16, w=512); nsa_ms: every kernel of one forward+backward (torch.profiler, 3 steps after 3), "
         "nsa_wall_ms: CUDA events over 10 calls; cudnn_ms: the same shape's causal SDPA forward+backward (CUDA events). "
         "banded_ms: the compressed and window branches (two launches each of the banded forward, dq and dk/dv "
         "kernels); scores_topn_ms: the selection scores with the top-n in their walk (score_launches: that kernel's "
         "launches, one at every length); selected_ms: the selected branch's kernels; kernels: the 18 largest by name "
         "(ms, launches).")

def own_words(path) -> dict:
    "The title and notes of the result file at `path` where it has them (a curated file's own), else TITLE and NOTES."
    import os
    old = json.load(open(path)) if os.path.exists(path) else {}
    return dict(title=old.get('title') or TITLE, notes=old.get('notes') or NOTES)

if __name__ == '__main__':
    args, out = sys.argv[1:], None
    if '--out' in args:
        i = args.index('--out')
        if i + 1 == len(args) or args[i + 1].startswith('-'): raise SystemExit("--out: give the JSON file to write")
        out = args.pop(i + 1); args.pop(i)
    with_docs = '--docs' in args
    specs, shapes = [a for a in args if a != '--docs'], []
    if not specs: raise SystemExit(__doc__)
    for spec in specs:                                                   # every spec checked before a minute on the GPU
        *dims, tag = spec.split(',')
        if len(dims) not in (5, 6) or not all(d.isdigit() for d in dims):
            raise SystemExit(f"{spec!r}: give B,T,HQ,H,K,TAG or B,T,HQ,H,K,V,TAG (integers, then a tag)")
        shapes.append((*map(int, dims + dims[4:] * (len(dims) == 5)), tag))
    rows = []
    for B, T, HQ, H, K, V, tag in shapes:
        rows.append(run(B, T, HQ, H, K, V, tag))
        if with_docs: run(B, T, HQ, H, K, V, tag, with_docs=True)
        if out:                                                          # after every shape: a crash keeps the rows so far
            from nsa_nb.results import save_result
            save_result(out, rows, **own_words(out),
                        command='cd scripts/tuning && python3 profile_kernels.py --out OUT.json ' + ' '.join(specs))
