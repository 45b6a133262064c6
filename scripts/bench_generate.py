# Tokens per second of model.generate on the 125M model (configs/m7c_125m.yaml shape, bf16, random weights), NSA and dense, with the decode
# step replayed from a CUDA graph (graph=True) against eager steps (graph=False), in one process on one GPU; and whether both give the same
# tokens (greedy). Each call is timed twice, cold (the first at its shapes) and warm; prefill included. Usage: python3 scripts/bench_generate.py OUT.json [PROMPT_LENS=2048,16384] [BATCHES=1,8] [NEW=128]
import sys, json, time, torch
from nsa_nb.decode import _bench_model
prompts = [int(x) for x in (sys.argv[2] if len(sys.argv) > 2 else '2048,16384').split(',')]
batches = [int(x) for x in (sys.argv[3] if len(sys.argv) > 3 else '1,8').split(',')]
new = int(sys.argv[4]) if len(sys.argv) > 4 else 128
out = dict(device=torch.cuda.get_device_name(), torch=torch.__version__, new_tokens=new, rows=[])
for attn in ('nsa', 'dense'):
    model = _bench_model(attn, 'configs/m7c_125m.yaml', torch.bfloat16)
    for T in prompts:
        for B in batches:
            p = torch.randint(0, model.cfg.vocab_size, (B, T), device='cuda')
            r = dict(attn=attn, prompt=T, B=B)
            for graph in (True, False):
                for run in ('cold', 'warm'):                                       # cold: the first call at these shapes (kernel compiles, SDPA
                    torch.cuda.synchronize(); t = time.perf_counter()              # plans); warm: the same call again
                    toks = model.generate(p, new, graph=graph)
                    torch.cuda.synchronize(); s = time.perf_counter() - t
                    r[f"{'graph' if graph else 'eager'}_{run}"] = dict(s=s, tokens_per_s=B * new / s)
                r['tokens_graph' if graph else 'tokens_eager'] = toks[:, T:]
            r['same_tokens'] = (r.pop('tokens_graph') == r.pop('tokens_eager')).float().mean().item()
            out['rows'].append(r); print(json.dumps(r), flush=True)
    del model; torch.cuda.empty_cache()
print(f"{'attn':6s} {'prompt':>7s} {'B':>2s} {'graph tok/s':>12s} {'eager tok/s':>12s} {'x':>6s} {'cold graph':>11s} {'cold eager':>11s} same  (tokens/s, prefill included)")
for r in out['rows']:
    tps = lambda k: r[k]['tokens_per_s']
    print(f"{r['attn']:6s} {r['prompt']:7d} {r['B']:2d} {tps('graph_warm'):12.1f} {tps('eager_warm'):12.1f} {tps('graph_warm') / tps('eager_warm'):6.2f} "
          f"{tps('graph_cold'):11.1f} {tps('eager_cold'):11.1f} {r['same_tokens']:.3f}")
json.dump(out, open(sys.argv[1], 'w'), indent=1)
