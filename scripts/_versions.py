"""Shared by the before/after benchmark scripts: an older nsa_nb module, taken from git into .pk/, loaded beside this tree's;
training with a module patched; the selections the kernels are timed on (random q, k, or a trained model's on real text)."""
import sys, importlib.util

def load_old(name:str, path:str):
    "An older nsa_nb module file as module `nsa_nb.<name>` (e.g. 'kernels.nsa_before'), so that its relative imports resolve."
    spec = importlib.util.spec_from_file_location(f'nsa_nb.{name}', path)
    m = importlib.util.module_from_spec(spec); sys.modules[spec.name] = m; spec.loader.exec_module(m)
    return m

def train_patched(module, patches:dict, attn:str, T:int) -> dict:
    "`train_throughput` of the 125M model (`attn` 'nsa' or 'dense'; 32k tokens per step, as `nsa_nb_bench train`) at seq_len T, with `module.<name>` replaced by `patches[name]` for the run."
    import torch
    from nsa_nb.bench import m7c_125m
    from nsa_nb.train import train_throughput
    old = {n: getattr(module, n) for n in patches}
    for n, f in patches.items(): setattr(module, n, f)
    try: return train_throughput(m7c_125m(attn), seq_len=T, batch_size=max(1, 32768 // T), steps=10)
    finally:
        for n, f in old.items(): setattr(module, n, f)
        torch.cuda.empty_cache()

def train_with(module, name:str, fn, attn:str, T:int) -> dict:
    "`train_patched` with one function replaced."
    return train_patched(module, {name: fn}, attn, T)

def scores_inputs(B, T, HQ, H, K, cfg):
    "Random bf16 queries `q [B, T, HQ, K]`, the compressed keys of random keys and the compressed branch's lse: what the scores kernel reads."
    import torch
    from nsa_nb.compression import Compressor
    from nsa_nb.kernels.banded import compressed_attention_triton
    q, k = torch.randn(B, T, HQ, K, device='cuda', dtype=torch.bfloat16), torch.randn(B, T, H, K, device='cuda', dtype=torch.bfloat16)
    kc = Compressor(cfg.l, cfg.d, K)(k)
    _, lse = compressed_attention_triton(q, kc, kc, cfg.l, cfg.d)
    return q, kc, lse

def selection_cases(cfg, lengths=(8192, 65536)):
    "(shape, T, H, q, kc, lse) of `scores_inputs` at B=1, seed 0, for the paper's shape and the 125M model's at each length."
    import torch
    for shape, (HQ, H, K) in dict(paper=(64, 4, 128), model125m=(12, 2, 64)).items():
        for T in lengths:
            torch.manual_seed(0)
            yield (shape, T, H, *scores_inputs(1, T, HQ, H, K, cfg))

def random_selection(B, T, HQ, H, K, cfg):
    "The blocks random q, k select (scores, top-n), as in the kernel benchmark."
    import nsa_nb.kernels.nsa as kn
    q, kc, lse = scores_inputs(B, T, HQ, H, K, cfg)
    return kn.select_blocks_triton(q, kc, lse, cfg)

def text_selections(T, B=1, path='.pk/w_text_nsa_avg.pt'):
    "Each layer's selected blocks `[B, T, H, n]` of the trained byte-level model (notebook 14) on B windows of T bytes of the standard library's source."
    import torch
    from nsa_nb.config import NSAConfig, ModelConfig
    from nsa_nb.model import TransformerLM
    from nsa_nb.attention import NSAttention
    from nsa_nb.data import stdlib_documents
    ck = torch.load(path, map_location='cuda', weights_only=False)
    mc, nc = ModelConfig(**ck['config']['model']), NSAConfig(**ck['config']['nsa'])
    model = TransformerLM(mc, nc).cuda().eval(); model.load_state_dict(ck['model'])
    text = torch.tensor(list('\n'.join(stdlib_documents()).encode()[:B * T]), device='cuda').view(B, T)
    for m in model.modules():
        if isinstance(m, NSAttention): m.track_stats = True
    with torch.no_grad(), torch.autocast('cuda', torch.bfloat16): model(text)
    return [m._last['idx'] for m in model.modules() if isinstance(m, NSAttention)], mc, nc

def recorder(path:str):
    "`record(row)`: prints the row as JSON and rewrites `path` with every row so far, after the device, torch and Triton versions."
    import json, torch, triton
    out = dict(device=torch.cuda.get_device_name(), torch=torch.__version__, triton=triton.__version__, rows=[])
    def record(r):
        print(json.dumps(r), flush=True); out['rows'].append(r); json.dump(out, open(path, 'w'), indent=1)
    return record
