"""Shared by the before/after benchmark scripts: an older nsa_nb module, taken from git into .pk/, loaded beside this tree's."""
import sys, importlib.util

def load_old(name:str, path:str):
    "An older nsa_nb module file as module `nsa_nb.<name>` (e.g. 'kernels.nsa_before'), so that its relative imports resolve."
    spec = importlib.util.spec_from_file_location(f'nsa_nb.{name}', path)
    m = importlib.util.module_from_spec(spec); sys.modules[spec.name] = m; spec.loader.exec_module(m)
    return m

def train_with(module, name:str, fn, attn:str, T:int) -> dict:
    "`train_throughput` of the 125M model (`attn` 'nsa' or 'dense'; 32k tokens per step, as `nsa_nb_bench train`) at seq_len T, with `module.<name>` replaced by `fn` for the run."
    import torch
    from nsa_nb.bench import m7c_125m
    from nsa_nb.train import train_throughput
    old = getattr(module, name); setattr(module, name, fn)
    try: return train_throughput(m7c_125m(attn), seq_len=T, batch_size=max(1, 32768 // T), steps=10)
    finally: setattr(module, name, old); torch.cuda.empty_cache()
