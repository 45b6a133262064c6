"""Decode of the 125M model (configs/m7c_125m.yaml, bf16, CUDA-graph replays), NSA with the one-launch append (append_token_triton,
this tree) and with the PyTorch append_token it replaces, against dense attention, all in one run: ms per token for one attention
layer and for the whole model, the CUDA kernels of one eager whole-model step, and the logits of both NSA versions from the same cache.
With `rope` as the second argument the two versions compared are RoPE tables made once per step (`rope_once`, this tree) and
made again by every layer, as before.
Usage: python3 scripts/bench_decode_append.py OUT.json [append|rope]"""
import sys, json, torch
from torch.profiler import profile, ProfilerActivity
import nsa_nb.decode as dec
from nsa_nb.decode import _bench_model, _bench_one, fill_random_

if len(sys.argv) not in (2, 3) or sys.argv[2:] not in ([], ['append'], ['rope']): sys.exit(__doc__)
WHAT = (sys.argv[2:] or ['append'])[0]
NAME = dict(append='append_token_triton', rope='rope_once')[WHAT]                  # the function the two versions swap
one_launch = getattr(dec, NAME)                                                   # this tree's: named 'one_launch' in the output
def pytorch_append(attn, lc, ks, vs, pos): dec.append_token(attn, lc, ks, vs, pos)
def rope_per_layer(memo, pos, dim, base=10000.0): return dec.rope_at(pos, dim, base)
VERSIONS = {'pytorch_append' if WHAT == 'append' else 'per_layer': pytorch_append if WHAT == 'append' else rope_per_layer, 'one_launch': one_launch}
BEFORE = list(VERSIONS)[0]
def use(fn): setattr(dec, NAME, fn)
models = {a: _bench_model(a, 'configs/m7c_125m.yaml', torch.bfloat16) for a in ('dense', 'nsa')}
out = dict(device=torch.cuda.get_device_name(), compared=WHAT, rows=[], kernels={}, logits={})

def eager_step(model, B=1, T=8192):
    "A cache of T random tokens and one decode step's inputs."
    cache = fill_random_(model.new_cache(B, T + 64), T)
    for lc in cache.layers: lc.count_reads = False
    return cache, torch.randint(0, model.cfg.vocab_size, (B, 1), device='cuda')

DENSE_TOO = WHAT == 'rope'                                          # the dense model rotates with rope_once too: measure it both ways
for name, fn in [('dense', None), *VERSIONS.items()] + ([('dense_' + BEFORE, VERSIONS[BEFORE])] if DENSE_TOO else []):   # CUDA kernels of one eager step (B=1, 8k)
    use(fn or one_launch)
    m = models['dense' if name.startswith('dense') else 'nsa']
    cache, nxt = eager_step(m)
    for _ in range(3): m.decode_step(nxt, cache)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof: m.decode_step(nxt, cache); torch.cuda.synchronize()
    out['kernels'][name] = sum(e.count for e in prof.key_averages() if e.device_type == torch.autograd.DeviceType.CUDA)
print('CUDA kernels per whole-model step (B=1, 8k):', out['kernels'], flush=True)

cache, nxt = eager_step(models['nsa'], B=4, T=5000)                  # same cache, both appends: same logits?
lg = {}
for name, fn in VERSIONS.items():
    use(fn)
    c = cache.clone()
    lg[name] = torch.stack([models['nsa'].decode_step(nxt, c)[0].float() for _ in range(40)])   # 40 steps: blocks complete on the way
out['logits'] = dict(max_abs_diff=(lg['one_launch'] - lg[BEFORE]).abs().max().item(), max_abs=lg[BEFORE].abs().max().item())
print(f'logits, 40 steps from one cache, this tree vs {BEFORE}:', out['logits'], flush=True)

for part in ('layer', 'model') if WHAT == 'append' else ('model',):          # one layer alone has no other layer to share RoPE with
    for B in (1, 8):
        for T in (8192, 32768, 65536):
            r = dict(part=part, B=B, T=T, dense_ms=_bench_one(models['dense'], part, B, T, True, 100, 5))
            for name, fn in VERSIONS.items():
                use(fn)
                r[f'{name}_ms'] = _bench_one(models['nsa'], part, B, T, True, 100, 5)
                if DENSE_TOO and name == BEFORE: r[f'dense_{name}_ms'] = _bench_one(models['dense'], part, B, T, True, 100, 5)
                r[f'x_{name}'] = r.get(f'dense_{name}_ms', r['dense_ms']) / r[f'{name}_ms']
            use(one_launch)
            out['rows'].append(r); print(json.dumps(r), flush=True)
            torch.cuda.empty_cache()
print(f"{out['device']}, ms per token (CUDA graph replays), speed-up = dense / NSA" + (f" (before: dense with {BEFORE} too, in column dense_{BEFORE}_ms of the JSON)" if DENSE_TOO else ''))
print(f"{'part':>5} {'B':>2} {'T':>6} {'dense':>8} {'nsa, ' + BEFORE:>20} {'nsa, this tree':>16} {'x before':>9} {'x after':>8}")
for r in out['rows']: print(f"{r['part']:>5} {r['B']:>2} {r['T']:>6} {r['dense_ms']:8.4f} {r[BEFORE + '_ms']:20.4f} {r['one_launch_ms']:16.4f} "
                           f"{r['x_' + BEFORE]:9.2f} {r['x_one_launch']:8.2f}")
json.dump(out, open(sys.argv[1], 'w'), indent=1)
