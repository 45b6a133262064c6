"""A/B in one process: the sliding window's backward inside the selected branch's dk/dv (NSA's one set of keys, the
default) against its own banded dk/dv pass (the window handed its keys as a separate tensor, as with separate_kv).
`kernels`: one NSA layer's forward+backward on random bf16 inputs (`nsa_nb.bench`'s), cuDNN SDPA beside it, and the
gradients of the two ways compared; `train`: compiled 125M training steps (train_throughput), the two ways alternating.
Usage: python3 scripts/tuning/ab_window_bwd.py kernels|train OUT.json [B,T,HQ,H,K ...|T,T [rounds]]"""
import sys, torch, triton
import nsa_nb.kernels.nsa as kn
from nsa_nb.bench import nsa_full, sdpa_full, _inputs
from nsa_nb.config import NSAConfig, named_config
from nsa_nb.testing import rel_err
from _common import recorder

fused_path = kn.nsa_attention_triton
def apart_path(q, ks, vs, *args, **kw):   # the same keys as another tensor object: the window's own backward runs
    return fused_path(q, (ks[0], ks[1], ks[2].view_as(ks[2])), (vs[0], vs[1], vs[2].view_as(vs[2])), *args, **kw)
ways = {'fused': fused_path, 'apart': apart_path}

def kernels(record, shapes):
    cfg = NSAConfig()
    for s in shapes:
        B, T, HQ, H, K = map(int, s.split(','))
        q, k, v, g = _inputs(B, T, HQ, H, K, K, torch.bfloat16, 'bthd')
        do = torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16)
        r, grads = dict(B=B, T=T, HQ=HQ, H=H, K=K), {}
        for name, path in ways.items():
            kn.nsa_attention_triton = path
            step = lambda: torch.autograd.grad(nsa_full(q, k, v, g, cfg), (q, k, v, g), do)
            grads[name] = step()
            r[f'{name}_ms'] = round(triton.testing.do_bench(step, warmup=25, rep=300, return_mode='median'), 4)
        kn.nsa_attention_triton = fused_path
        qd, kd, vd = (t.detach().transpose(1, 2).contiguous().requires_grad_() for t in (q, k, v))
        dod = do.transpose(1, 2).contiguous()
        r['cudnn_ms'] = round(triton.testing.do_bench(lambda: torch.autograd.grad(sdpa_full(qd, kd, vd), (qd, kd, vd), dod),
                                                      warmup=25, rep=300, return_mode='median'), 4)
        r['grad_rel_err'] = [round(rel_err(a, b), 5) for a, b in zip(grads['fused'], grads['apart'])]   # dq, dk, dv, dg
        record(r)

def train(record, lengths, rounds):
    from nsa_nb.train import train_throughput
    for T in lengths:
        for i in range(rounds):
            for name in (list(ways) if i % 2 == 0 else list(ways)[::-1]):
                kn.nsa_attention_triton = ways[name]
                c = named_config('m7c_125m', ['model.attn=nsa', 'train.compile=true'])
                res = train_throughput(c, T, 32768 // T, steps=10, device='cuda')
                record(dict(T=T, round=i, way=name, tokens_per_s=round(res['tokens_per_s']), step_ms=round(res['step_ms'], 2),
                            peak_gib=round(res['peak_mem_gib'], 2), graphs=res['graphs']))
                torch._dynamo.reset()
        kn.nsa_attention_triton = fused_path

if __name__ == '__main__':
    what, out, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    record = recorder(out)
    if what == 'kernels':
        kernels(record, rest or ['16,2048,12,2,64', '4,8192,12,2,64', '1,32768,12,2,64', '1,8192,64,4,128',
                                 '1,16384,64,4,128'])
    else: train(record, [int(t) for t in (rest[:1] or ['2048,8192'])[0].split(',')], int((rest[1:2] or ['2'])[0]))
