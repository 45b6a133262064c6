"""Per-kernel GPU time of one NSA attention forward+backward (NSAttention's Triton path, `nsa_attention_triton`), by kernel
name, from torch.profiler over 3 steps after 3 warm-up steps, bf16, random inputs, one GPU; under a minute per shape.
Then the same shape's causal SDPA forward+backward (torch's default backend: cuDNN on an H100), for comparison.
With --docs, each shape runs twice: without documents, then with packed documents of FineWeb-Edu's lengths
(`sample_doc_cu_seqlens`, notebook 08), and the operators that take the most host time per call. Each run also prints
its wall time per call: above the kernels' sum, the GPU waited for the host.
Usage: python3 scripts/tuning/profile_kernels.py [--docs] B,T,HQ,H,K[,V],TAG [...] (V defaults to K)
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
    for k_, (t, c) in sorted(rows.items(), key=lambda x: -x[1][0])[:18]: print(f"  {t:8.3f} ms {c:4d}x  {k_[:90]}")
    if not with_docs: sdpa(B, T, HQ, H, K, V)
    else: host_ops(step)

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
    for _ in range(3): step()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize(); a.record()
    for _ in range(10): step()
    b.record(); torch.cuda.synchronize()
    print(f"  sdpa (default backend) B={B} T={T} fwd+bwd {a.elapsed_time(b) / 10:.3f} ms", flush=True)
if __name__ == '__main__':
    with_docs = '--docs' in sys.argv
    for spec in [a for a in sys.argv[1:] if a != '--docs']:
        *dims, tag = spec.split(',')
        if len(dims) not in (5, 6): raise SystemExit(f"{spec!r}: give B,T,HQ,H,K,TAG or B,T,HQ,H,K,V,TAG")
        B, T, HQ, H, K, V = map(int, dims + dims[4:] * (len(dims) == 5))
        run(B, T, HQ, H, K, V, tag)
        if with_docs: run(B, T, HQ, H, K, V, tag, with_docs=True)
