"""The gated sum (Eq. 5) in one Triton pass (`gate_combine_triton`, this tree) against the three PyTorch kernels it replaces
(`gate_combine`), in one run on one GPU: the sum alone, forward and forward+backward, at the paper's shape and the 125M model's
(bf16, B=1), and the 125M model's training tokens/s with each (32k tokens per step, as `nsa_nb_bench train`).
Usage: python3 scripts/bench_combine.py OUT.json [seq_len ...]      (training lengths, default 2048 8192 32768)"""
import sys, json
import torch, triton
import nsa_nb.kernels.nsa as kn
from nsa_nb.attention import gate_combine
from _versions import train_with

if len(sys.argv) < 2: sys.exit(__doc__)
fused = kn.gate_combine_triton
out = dict(device=torch.cuda.get_device_name(), torch=torch.__version__, triton=triton.__version__, combine=[], train=[])
for shape, (HQ, V) in dict(paper=(64, 128), model125m=(12, 64)).items():
    for T in (8192, 65536):
        g = torch.rand(1, T, HQ, 3, device='cuda', dtype=torch.bfloat16, requires_grad=True)
        br = [torch.randn(1, T, HQ, V, device='cuda', dtype=torch.bfloat16, requires_grad=True) for _ in range(3)]
        do = torch.randn(1, T, HQ, V, device='cuda', dtype=torch.bfloat16)
        r = dict(shape=shape, T=T, max_abs_diff=(fused(g, br) - gate_combine(g, br)).abs().max().item())
        for name, f in (('pytorch', gate_combine), ('triton', fused)):
            r[f'{name}_fwd_ms'] = triton.testing.do_bench(lambda: f(g, br))
            r[f'{name}_fwdbwd_ms'] = triton.testing.do_bench(lambda: torch.autograd.grad(f(g, br), [g, *br], do))
        print(json.dumps(r), flush=True); out['combine'].append(r)
for T in [int(x) for x in sys.argv[2:]] or [2048, 8192, 32768]:
    for name, f in (('pytorch', gate_combine), ('triton', fused)):
        r = train_with(kn, 'gate_combine_triton', f, 'nsa', T)            # what NSAttention's fast path calls
        r['combine'] = name; out['train'].append(r)
        print(json.dumps({k: r[k] for k in ('combine', 'seq_len', 'tokens_per_s', 'step_ms', 'peak_mem_gib')}), flush=True)
        json.dump(out, open(sys.argv[1], 'w'), indent=1)
