"""Peak memory of one checkpointed, compiled training step of the 125M model with its MLP whole and a chunk of rows at a
time (`train.mlp_chunk`, notebook 07): a process per setting, since a CPU's peak (ru_maxrss) only grows.
On a CPU the reference attention runs; `dense` keeps it quick. On a GPU (`DEVICE=cuda`) the peak is
`torch.cuda.max_memory_allocated`.
Usage: [DEVICE=cuda] python3 scripts/tuning/mlp_chunk_peak.py CHUNK T [nsa|dense] [layers]
       e.g. python3 scripts/tuning/mlp_chunk_peak.py 0 65536 dense 2; ... 4096 65536 dense 2   (CPU: ~7 minutes each)"""
import os, resource, sys
import torch
from nsa_nb.config import named_config
from nsa_nb.model import TransformerLM

chunk, T = int(sys.argv[1]), int(sys.argv[2])
attn, layers = (sys.argv[3:4] or ['dense'])[0], int((sys.argv[4:5] or [12])[0])
dev = os.environ.get('DEVICE', 'cpu')
cfg = named_config('m7c_125m', [f'model.attn={attn}', f'model.n_layers={layers}'] +
                   (['model.vocab_size=256', 'data.tokenizer=bytes'] if dev == 'cpu' else []))
torch.manual_seed(0)
model = TransformerLM(cfg.model, cfg.nsa).to(dev).set_gradient_checkpointing(True).set_mlp_chunk(chunk)
fwd = torch.compile(model)
x = torch.randint(0, cfg.model.vocab_size, (1, T + 1), device=dev)
for i in range(2):                                                   # the first compiles; the second is measured
    if dev == 'cuda' and i: torch.cuda.synchronize(); torch.cuda.reset_peak_memory_stats()
    with torch.autocast(dev, torch.bfloat16): loss = fwd(x[:, :-1], x[:, 1:])
    loss.backward()
    model.zero_grad(set_to_none=False)
peak = torch.cuda.max_memory_allocated() / 2**30 if dev == 'cuda' else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
print(f"{attn}, {layers} layers, T={T}, mlp_chunk={chunk}, {dev}: peak {'allocated' if dev == 'cuda' else 'RSS'} {peak:.2f} GiB")
