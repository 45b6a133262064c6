"""This tree's backward against an older one, in one run on one GPU: `row_dot` (delta in one pass), `tile_blocks` (one
Triton kernel instead of sorts in PyTorch), the selection dk/dv kernel's unpadded rows and launch, the window backward's
tiles (notebooks 06a, 06b), against the kernel modules of an older commit (`git show REV:nsa_nb/kernels/selection.py > prev/selection.py`, the same for banded.py). Times the
selected and the window branch forward+backward and `tile_blocks` alone at the 125M model's shape (B=16, T=2048) and the
paper's (B=1, T=65536), bf16, random q, k, then the 125M model's training tokens/s (32k tokens per step, as
`nsa_nb_bench train`) with dense attention, the old modules and this tree's (twice, for the noise).
Usage: python3 scripts/bench_bwd_glue.py OUT.json PREV_DIR [seq_len ...]   (training lengths, default 2048 8192 32768)"""
import sys, json, math
import torch, triton
import nsa_nb.kernels.nsa as kn
import nsa_nb.kernels.selection as ks
import nsa_nb.kernels.banded as kb
from nsa_nb.config import NSAConfig
from _versions import load_old, train_patched

if len(sys.argv) < 3: sys.exit(__doc__)
old_kb = load_old('kernels.banded_before', f'{sys.argv[2]}/banded.py')
old_ks = load_old('kernels.selection_before', f'{sys.argv[2]}/selection.py')
versions = dict(before=(old_kb, old_ks), after=(kb, ks))

def fast_path(kb_, ks_) -> dict:
    "NSAttention's fast path (notebook 06c's `nsa_branches`) calls these three: one version's."
    return dict(compressed_attention_triton=kb_.compressed_attention_triton, sliding_attention_triton=kb_.sliding_attention_triton,
                selected_attention_triton=ks_.selected_attention_triton)

out = dict(device=torch.cuda.get_device_name(), torch=torch.__version__, triton=triton.__version__, branches=[], train=[])
cfg = NSAConfig()
for shape, (B, T, HQ, H, K) in dict(model125m=(16, 2048, 12, 2, 64), paper=(1, 65536, 64, 4, 128)).items():
    torch.manual_seed(0)
    q, k, v = [torch.randn(B, T, h, K, device='cuda', dtype=torch.bfloat16, requires_grad=True) for h in (HQ, H, H)]
    kc = torch.randn(B, math.ceil(T / cfg.d), H, K, device='cuda', dtype=torch.bfloat16)[:, :(T - cfg.l) // cfg.d + 1]   # compressed keys (and values)
    _, lse = kb.compressed_attention_triton(q.detach(), kc, kc, cfg.l, cfg.d)
    idx = kn.select_blocks_triton(q.detach(), kc, lse, cfg)
    do = torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16)
    r, grads = dict(shape=shape, B=B, T=T), {}
    BT = ks._tile_tokens(HQ // H)
    for name in ('before', 'after', 'after_again'):                                 # this tree twice, for the noise
        kb_, ks_ = versions[name.split('_')[0]]
        sel = lambda: torch.autograd.grad(ks_.selected_attention_triton(q, k, v, idx, cfg.l_sel)[0], (q, k, v), do)
        win = lambda: torch.autograd.grad(kb_.sliding_attention_triton(q, k, v, cfg.w)[0], (q, k, v), do)
        grads[name] = sel() + win()
        r[f'{name}_sel_fwdbwd_ms'] = triton.testing.do_bench(sel)
        r[f'{name}_win_fwdbwd_ms'] = triton.testing.do_bench(win)
        if BT > 1: r[f'{name}_tile_blocks_ms'] = triton.testing.do_bench(lambda: ks_.tile_blocks(idx, BT))
    r['max_abs_grad_diff'] = max((a.float() - b.float()).abs().max().item() for a, b in zip(grads['before'], grads['after']))
    if BT > 1: r['tile_blocks_equal'] = all(torch.equal(a, b) for a, b in zip(old_ks.tile_blocks(idx, BT), ks.tile_blocks(idx, BT)))
    print(json.dumps(r), flush=True); out['branches'].append(r)
    del q, k, v, kc, lse, idx, do, grads; torch.cuda.empty_cache()
for T in [int(x) for x in sys.argv[3:]] or [2048, 8192, 32768]:
    for name in ('dense', 'before', 'after', 'after again'):
        r = train_patched(kn, fast_path(*versions.get(name.split()[0], versions['after'])), 'dense' if name == 'dense' else 'nsa', T)
        r['version'] = name; out['train'].append(r)
        print(json.dumps({k: r[k] for k in ('version', 'seq_len', 'tokens_per_s', 'step_ms', 'peak_mem_gib')}), flush=True)
        json.dump(out, open(sys.argv[1], 'w'), indent=1)
