# Versions of the Triton decode core in one run, against dense SDPA decode, on the 125M shape (bf16, CUDA graph replays),
# with a kernel-time profile of 50 eager steps at batch 1 and 8, 64k. 'after' is this tree's nsa_nb.decode; each NAME=FILE
# is an older nsa_nb/decode.py taken from git first (on a machine with the history) and carried to the GPU node, e.g.
#   mkdir -p .pk && git show d44548f:nsa_nb/decode.py > .pk/decode_five.py
#   python3 scripts/bench_decode_versions.py OUT.json five=.pk/decode_five.py [after64:SCORE_BLOCKS=64] [nopdl:PDL=0,MAX_CANDIDATES=256]
# NAME:K=N[,K2=N2] adds this tree's version with those module settings. Every version must select the same blocks.
# PROFILE=0 skips the kernel profile. SHAPE=paper in the environment times the paper's attention shape instead (64 query heads, 4 KV heads, K = V = 128, the
# default NSAConfig), one layer built here.
# Earlier runs of this script (bench_results/decode2/decode_v2_before_after_h100.*) compared commits 2cc39e2 ('before'),
# 14e2e62 ('v1'; named 'two' in that JSON) and the five-launch version.
import os, sys, json
import torch
from torch.profiler import profile, ProfilerActivity
import nsa_nb.decode as after
from nsa_nb.decode import _bench_model, layer_cache, fill_random_, _time_steps, sdpa_decode
from _versions import load_old

versions, settings = {}, {}
for a in sys.argv[2:]:
    if ':' in a: name, kvs = a.split(':'); versions[name] = after; settings[name] = {k: int(v) for k, v in (kv.split('=') for kv in kvs.split(','))}
    else: name, path = a.split('='); versions[name] = load_old(f'decode_{name}', path)
versions['after'] = after
def run(v, *args):
    "Version v's nsa_decode_triton(*args), with its module setting when it has one."
    if v not in settings: return versions[v].nsa_decode_triton(*args, count=False)
    old = {k: getattr(after, k) for k in settings[v]}
    for k, val in settings[v].items(): setattr(after, k, val)
    try: return after.nsa_decode_triton(*args, count=False)
    finally:
        for k, val in old.items(): setattr(after, k, val)

def layer(attn):
    "Layer 0 of the 125M model, or of a one-layer model of the paper's shape (SHAPE=paper)."
    if os.environ.get('SHAPE') != 'paper': return _bench_model(attn, 'configs/m7c_125m.yaml', torch.bfloat16).blocks[0].attn
    from nsa_nb.config import ModelConfig, NSAConfig
    from nsa_nb.model import TransformerLM
    mc = ModelConfig(vocab_size=256, dim=1024, n_layers=1, n_heads=64, n_kv_groups=4, d_k=128, d_v=128, attn=attn, backend='triton')
    return TransformerLM(mc, NSAConfig()).cuda().to(torch.bfloat16).eval().blocks[0].attn
attn, dattn = layer('nsa'), layer('dense')
print(f"shape: HQ={attn.n_heads} H={attn.n_kv} K={attn.d_k} V={attn.d_v}; {attn.cfg}; PDL usable: {after._use_pdl(torch.device('cuda'))}", flush=True)

def inputs(B, T):
    "A random NSA cache of T tokens, the dense one, and one step's position, queries and gates at batch B."
    lc = fill_random_(layer_cache(attn, B, T + 200), 0); lc.count_reads = False
    pos = torch.full((B,), T, device='cuda', dtype=torch.long)
    q = torch.randn(B, attn.n_heads, attn.d_k, device='cuda', dtype=torch.bfloat16)
    return lc, fill_random_(layer_cache(dattn, B, T + 200), 0), pos, q, torch.rand(B, attn.n_heads, 3, device='cuda', dtype=q.dtype)

rows = []
for B in (1, 8):
    for T in (8192, 32768, 65536, 131072):
        lc, dc, pos, q, g = inputs(B, T)
        args = (q, lc, pos, g, attn.cfg)
        o_a, i_a, _ = run('after', *args)
        r = dict(B=B, T=T)
        for v in versions:
            if v == 'after': continue
            o, i, _ = run(v, *args)                                                   # same blocks, same output?
            r[f'{v}_same_idx'], r[f'{v}_max_abs_diff'] = bool((i == i_a).all()), (o.float() - o_a.float()).abs().max().item()
        r['dense_ms'] = _time_steps(lambda: sdpa_decode(q[:, :, None], dc.k[:, :, :T + 1], dc.v[:, :, :T + 1]), 200, 10, True)
        for v in versions: r[f'{v}_ms'] = _time_steps(lambda v=v: run(v, *args), 200, 10, True); r[f'x_{v}'] = r['dense_ms'] / r[f'{v}_ms']
        rows.append(r); print(json.dumps(r), flush=True)
        del lc, dc; torch.cuda.empty_cache()
names = list(versions)
print(f"{'B':>2} {'T':>7} {'dense ms':>9} " + ' '.join(f'{v + " ms":>11}' for v in names) + ' ' + ' '.join(f'{"x " + v:>10}' for v in names) + ' same_idx')
for r in rows: print(f"{r['B']:>2} {r['T']:>7} {r['dense_ms']:9.4f} " + ' '.join(f"{r[v + '_ms']:11.4f}" for v in names) + ' '
                      + ' '.join(f"{r['x_' + v]:10.2f}" for v in names) + ' ' + str([r[f'{v}_same_idx'] for v in names if v != 'after']))
json.dump(rows, open(sys.argv[1], 'w'), indent=1)

# where the time goes: kernel times of 50 eager steps at 64k (PROFILE=0 in the environment: skipped)
for B in ((1, 8) if os.environ.get('PROFILE') != '0' else ()):
    lc, _, pos, q, g = inputs(B, 65536)
    for v in names:
        for _ in range(5): run(v, q, lc, pos, g, attn.cfg)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(50): run(v, q, lc, pos, g, attn.cfg)
            torch.cuda.synchronize()
        print(f"--- {v}, B={B}, T=65536\n" + prof.key_averages().table(sort_by='cuda_time_total', row_limit=8))
