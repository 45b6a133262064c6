"""Packed documents on one GPU (issue 56): attention forward+backward, masked against unmasked.

    python scripts/doc_mask_bench.py OUT [--lengths 8192,32768] [--tokens 32768]

Training tokens/s with and without documents: `nsa_nb_bench train --doc_mask --lengths 8192,32768`.

Documents have FineWeb-Edu's lengths (`sample_doc_cu_seqlens`: log-normal, median 400, mean 690 tokens). Attention rows
time one layer's attention at the 125M model's heads (12 query heads, 2 key/value heads, 64 dims), bf16, forward and
backward: cuDNN SDPA causal (unmasked), FlexAttention with the document mask (the dense baseline's masked path), and
NSA's attention (the three branches and the gated sum, through `NSAttention._attend`) unmasked and masked. Writes OUT/doc_mask.json (rows, device, versions, command) and prints each row as JSON.
"""
import argparse, json, math, os, platform, sys, time
import torch, triton
from nsa_nb.config import named_config
from nsa_nb.data import sample_doc_cu_seqlens
from nsa_nb.reference import docs_from_cu, doc_spans
from nsa_nb.model import flex_doc_attention, _sdpa_gqa, nsa_keys_per_query
from nsa_nb.attention import NSAttention, get_fallback_counters


def time_ms(fn, reps=10, warmup=3):
    "Mean ms of `fn()` (forward and backward) after warm-up, CUDA events."
    for _ in range(warmup): fn()
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(reps): fn()
    b.record(); torch.cuda.synchronize()
    return a.elapsed_time(b) / reps


def keys_per_query(cu, T, cfg):
    "Mean keys a query reads, dense causal and NSA (`nsa_keys_per_query`), over whole rows and within the documents."
    lens = [e - s for _, s, e in doc_spans(cu, T)]
    within = lambda f: sum(f(L) * L for L in lens) / sum(lens)                  # a document of L tokens: L queries
    return dict(dense_keys=(T + 1) / 2, dense_keys_docs=within(lambda L: (L + 1) / 2),
                nsa_keys=nsa_keys_per_query(T, cfg), nsa_keys_docs=within(lambda L: nsa_keys_per_query(L, cfg)))


def attention_rows(T, tokens, log):
    cfg = named_config('m7c_125m')
    mc, B = cfg.model, max(1, tokens // T)
    dev, dt = torch.device('cuda'), torch.bfloat16
    cu = sample_doc_cu_seqlens(B, T).to(dev)
    docs = docs_from_cu(cu, B, T, dev)
    HQ, H, K = mc.n_heads, mc.n_kv_groups, mc.d_k
    q = torch.randn(B, T, HQ, K, device=dev, dtype=dt, requires_grad=True)
    k = torch.randn(B, T, H, K, device=dev, dtype=dt, requires_grad=True)
    v = torch.randn(B, T, H, mc.d_v, device=dev, dtype=dt, requires_grad=True)
    do = torch.randn(B, T, HQ, mc.d_v, device=dev, dtype=dt)
    row = dict(kind='attention', seq_len=T, batch_size=B, documents=len(doc_spans(cu, T)),
               **keys_per_query(cu.cpu(), T, cfg.nsa))
    def fb(f):
        def run():
            q.grad = k.grad = v.grad = None
            f().backward(do)
        return run
    sdpa = lambda: _sdpa_gqa(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)).transpose(1, 2)
    row['sdpa_causal_ms'] = time_ms(fb(sdpa))
    row['flex_docs_ms'] = time_ms(fb(lambda: flex_doc_attention(q, k, v, docs)))
    # NSA: one layer's attention (projections excluded) through NSAttention's dispatch, unmasked and masked
    layer = NSAttention(mc.dim, HQ, H, K, mc.d_v, cfg=cfg.nsa, backend='triton').to(dev)
    x = torch.randn(B, T, mc.dim, device=dev, dtype=dt)
    with torch.no_grad(): qn, ks, vs = layer._heads(x.float())
    qn, ks, vs = qn.to(dt).requires_grad_(), tuple(t.to(dt).requires_grad_() for t in ks), tuple(t.to(dt).requires_grad_() for t in vs)
    g = torch.sigmoid(torch.randn(B, T, HQ, 3, device=dev)).to(dt)
    def nsa(d):
        def run():
            for t in (qn, *ks, *vs): t.grad = None
            with torch.autocast('cuda', dt):
                o = layer._attend(qn, ks, vs, g, False, d)[0]
            o.backward(do)
        return run
    before = sum(get_fallback_counters().values())
    row['nsa_ms'], row['nsa_docs_ms'] = time_ms(nsa(None)), time_ms(nsa(docs))
    row['fallbacks'] = sum(get_fallback_counters().values()) - before          # 0: both ran in the kernels
    log(row)
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out'); ap.add_argument('--lengths', default='8192,32768'); ap.add_argument('--tokens', type=int, default=32768)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rows = []
    def log(r): print(json.dumps(r), flush=True)
    for T in map(int, a.lengths.split(',')):
        rows.append(attention_rows(T, a.tokens, log))
    meta = dict(device=torch.cuda.get_device_name(), torch=torch.__version__, triton=triton.__version__,
                python=platform.python_version(), command=' '.join(['python'] + sys.argv), date=time.strftime('%Y-%m-%d'))
    json.dump(dict(meta=meta, rows=rows), open(os.path.join(a.out, 'doc_mask.json'), 'w'), indent=1)


if __name__ == '__main__': main()
