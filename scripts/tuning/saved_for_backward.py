"""What a compiled TransformerLM keeps for its backward and what an NSA layer's operators launch: the tensors autograd saves
in one training forward (shape, dtype, bytes; parameters, buffers and shared storage left out), and with OPS=1 the aten
operations and Triton launches inside `nsa_nb::nsa_fwd` / `nsa_bwd` for one layer's forward and backward. On a CPU (Triton's
interpreter, a tiny model, bf16 autocast, seconds) it shows the structure; on a GPU (`DEVICE=cuda`) the same at the sizes
given. BREAK=1 breaks the graph before each NSA layer's operators, to compare a model compiled in pieces with one graph.
CKPT=1 trains with activation checkpointing (`train.gradient_checkpointing`), KEEP=1 with its `train.keep_attention` policy.
Usage: [DEVICE=cuda] [BREAK=1] [OPS=1] [CKPT=1 [KEEP=1]] python3 scripts/tuning/saved_for_backward.py [nsa|dense] [dim layers heads d_k T]
       (default: nsa 96 2 6 16 256)"""
import collections, os, sys
from nsa_nb.testing import use_interpreter_on_cpu
dev = os.environ.get('DEVICE', 'cpu')
if dev == 'cpu': use_interpreter_on_cpu()          # before anything imports Triton
import torch
from nsa_nb.config import named_config
from nsa_nb.model import TransformerLM
from nsa_nb.attention import NSAttention

attn, (dim, layers, heads, dk, T) = (sys.argv[1:2] or ['nsa'])[0], map(int, sys.argv[2:7] or (96, 2, 6, 16, 256))
shape = [f'model.attn={attn}', f'model.dim={dim}', f'model.n_layers={layers}', f'model.n_heads={heads}', f'model.d_k={dk}',
         f'model.d_v={dk}']
tiny = ['model.vocab_size=256', 'data.tokenizer=bytes', 'model.backend=triton', 'nsa.w=64', 'nsa.n_sel=4']   # CPU sizes
cfg = named_config('m7c_125m', shape + (tiny if dev == 'cpu' else []))
if os.environ.get('BREAK') == '1':
    attend = NSAttention._attend
    def _attend(self, *a, **k): torch._dynamo.graph_break(); return attend(self, *a, **k)
    NSAttention._attend = _attend
torch.manual_seed(0)
model = TransformerLM(cfg.model, cfg.nsa).to(dev)
if os.environ.get('CKPT') == '1': model.set_gradient_checkpointing(True, os.environ.get('KEEP') == '1')
fwd = torch.compile(model)
x = torch.randint(0, cfg.model.vocab_size, (1, T + 1), device=dev)
with torch.autocast(dev, dtype=torch.bfloat16): loss = fwd(x[:, :-1], x[:, 1:])
loss.backward()                                                  # compiled; now count one step
own = {t.untyped_storage().data_ptr() for t in list(model.parameters()) + list(model.buffers())}
saved, seen = [], set()
def pack(t):
    p = t.untyped_storage().data_ptr()
    if p not in own and p not in seen:
        seen.add(p); saved.append((tuple(t.shape), str(t.dtype)[6:], t.untyped_storage().nbytes()))
    return t
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t), torch.autocast(dev, dtype=torch.bfloat16):
    loss = fwd(x[:, :-1], x[:, 1:])
loss.backward()
print(f"{attn}, {dev}, {layers} layers, T={T}{', checkpointed' if model.gradient_checkpointing else ''}: {len(saved)} saved tensors, {sum(s[2] for s in saved) / 2**20:.2f} MiB")
for (shape, dt), n in sorted(collections.Counter(s[:2] for s in saved).items(), key=lambda kv: str(kv[0])):
    print(f"  {n:3d} x {shape} {dt}")
if os.environ.get('OPS') == '1' and attn == 'nsa':
    from torch.profiler import profile, ProfilerActivity
    from triton.runtime.interpreter import InterpretedFunction
    from triton.runtime.jit import JITFunction
    launches = collections.Counter()
    for cls in (InterpretedFunction, JITFunction):               # count every Triton launch by kernel name
        def run(self, *a, _run=cls.run, **k):
            launches[getattr(self, 'fn', self).__name__] += 1
            return _run(self, *a, **k)
        cls.run = run
    with profile(activities=[ProfilerActivity.CPU]) as prof, torch.autocast(dev, dtype=torch.bfloat16):
        loss = fwd(x[:, :-1], x[:, 1:]); loss.backward()
    inside = collections.Counter()
    for e in prof.events():
        p, chain = e.cpu_parent, []
        while p is not None: chain.append(p.name); p = p.cpu_parent
        for op in ('nsa_nb::nsa_fwd', 'nsa_nb::nsa_bwd'):
            if op in chain and e.cpu_parent is not None and e.cpu_parent.name == op: inside[op, e.name] += 1
    print("operations called directly by NSA's operators, per layer (under the interpreter, its own copies count too):")
    for (op, name), n in sorted(inside.items(), key=lambda kv: -kv[1]): print(f"  {op[8:]:8s} {n / layers:6.1f}  {name}")
    print(f"Triton launches per layer, forward and backward: {sum(launches.values()) / layers:.0f}")
    for name, n in launches.most_common(): print(f"  {n / layers:6.1f}  {name}")
