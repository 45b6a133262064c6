"""Selection (scores + top-n) before and after the top-n kernel, in one run on one GPU: `select_blocks_triton` of this tree
against the version that ran torch.topk, a sort and a transposed copy (commit 0a1f197), at the paper's shape and the 125M
model's, bf16, B=1; whether both pick the same blocks; and a sweep of the top-n kernel's launch (rows per program, warps) and of the scores loop's pipeline stages.
Take the old module from git first (on a machine with the history), then carry .pk to the GPU node:
  mkdir -p .pk && git show 0a1f197:nsa_nb/kernels/nsa.py > .pk/nsa_before.py
  python3 scripts/bench_topn.py OUT.json [paper,model125m]"""
import sys, json
import torch, triton
import nsa_nb.kernels.nsa as after
from nsa_nb.config import NSAConfig
from nsa_nb.compression import Compressor
from nsa_nb.kernels.banded import compressed_attention_triton
from _versions import load_old

if len(sys.argv) not in (2, 3): sys.exit(__doc__)
before = load_old('kernels.nsa_before', '.pk/nsa_before.py')
bench = lambda f: triton.testing.do_bench(f, warmup=25, rep=200)

out = dict(device=torch.cuda.get_device_name(), torch=torch.__version__, triton=triton.__version__, rows=[], sweep=[])
cfg = NSAConfig()
SHAPES = dict(paper=(64, 4, 128), model125m=(12, 2, 64))
for shape in (sys.argv[2].split(',') if len(sys.argv) > 2 else SHAPES):
    HQ, H, K = SHAPES[shape]
    for T in (4096, 8192, 16384, 32768, 65536):
        torch.manual_seed(0)
        q, k = torch.randn(1, T, HQ, K, device='cuda', dtype=torch.bfloat16), torch.randn(1, T, H, K, device='cuda', dtype=torch.bfloat16)
        kc = Compressor(cfg.l, cfg.d, K)(k)
        _, lse = compressed_attention_triton(q, kc, kc, cfg.l, cfg.d)
        a, b = before.select_blocks_triton(q, kc, lse, cfg), after.select_blocks_triton(q, kc, lse, cfg)
        r = dict(shape=shape, T=T, same_rows=(a == b).all(-1).float().mean().item(),
                 before_ms=bench(lambda: before.select_blocks_triton(q, kc, lse, cfg)),
                 after_ms=bench(lambda: after.select_blocks_triton(q, kc, lse, cfg)))
        r['speedup'] = r['before_ms'] / r['after_ms']
        print(json.dumps(r), flush=True); out['rows'].append(r); json.dump(out, open(sys.argv[1], 'w'), indent=1)
        if T == 65536:                                                        # the top-n kernel's launch (timed with the whole selection)
            for BR in (1, 2, 4):
                for nw in (1, 2, 4):
                    after.TOPN_LAUNCH.update(BR=BR, num_warps=nw)
                    try: ms = bench(lambda: after.select_blocks_triton(q, kc, lse, cfg))
                    except Exception as e: ms = str(e)[:80]
                    s = dict(shape=shape, T=T, BR=BR, num_warps=nw, ms=ms); print(json.dumps(s), flush=True); out['sweep'].append(s)
            after.TOPN_LAUNCH.clear()
            for st in (2, 3):                                                 # the scores loop, software-pipelined
                after.SCORES_STAGES = st
                try: ms = bench(lambda: after.select_blocks_triton(q, kc, lse, cfg))
                except Exception as e: ms = str(e)[:80]
                s = dict(shape=shape, T=T, scores_stages=st, ms=ms); print(json.dumps(s), flush=True); out['sweep'].append(s)
            after.SCORES_STAGES = 1
json.dump(out, open(sys.argv[1], 'w'), indent=1)
