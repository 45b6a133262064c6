"""Training tokens/s and peak memory of the 125M model (`configs/m7c_125m.yaml`) in variants that `nsa_nb_bench train`
does not sweep: the loss through the whole logits and F.cross_entropy against the model's chunked loss head, and
torch.compile modes. bf16 autocast, fused AdamW, random tokens, 10 timed steps after 3; one GPU, about a minute a row.
Usage: python3 scripts/tuning/train_variants.py OUT.json ATTN,T,B,COMPILE,HEAD[,MODE] ...
  e.g. dense,8192,4,1,logits dense,8192,4,1,chunked nsa,2048,16,1,chunked,reduce-overhead
(COMPILE 0/1; HEAD logits or chunked; MODE a torch.compile mode, default Inductor's)."""
import sys, time, torch
import torch.nn.functional as F
from nsa_nb.config import named_config
from nsa_nb.model import TransformerLM
from nsa_nb.train import make_optimizer
from _common import recorder

if len(sys.argv) < 3: sys.exit(__doc__)
record = recorder(sys.argv[1])
torch.set_float32_matmul_precision('high')
for spec in sys.argv[2:]:
    attn, T, B, comp, head, *mode = spec.split(',')
    T, B, comp, mode = int(T), int(B), comp == '1', (mode or [None])[0]
    torch.manual_seed(0); torch._dynamo.reset(); torch.cuda.empty_cache()
    cfg = named_config('m7c_125m', [f'model.attn={attn}'])
    model = TransformerLM(cfg.model, cfg.nsa).cuda()
    fwd = torch.compile(model, mode=mode) if comp else model
    opt = make_optimizer(model, cfg.train, torch.device('cuda'))
    x = torch.randint(0, cfg.model.vocab_size, (B, T + 1), device='cuda')
    def step():
        with torch.autocast('cuda', torch.bfloat16):
            if head == 'chunked': loss = fwd(x[:, :-1], x[:, 1:])
            else: loss = F.cross_entropy(fwd(x[:, :-1]).float().flatten(0, 1), x[:, 1:].flatten())
        loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
    t0 = time.time()
    for _ in range(3): step()
    torch.cuda.synchronize(); warm = time.time() - t0
    torch.cuda.reset_peak_memory_stats(); t0 = time.perf_counter()
    for _ in range(10): step()
    torch.cuda.synchronize(); dt = (time.perf_counter() - t0) / 10
    record(dict(attn=attn, T=T, B=B, compiled=comp, mode=mode, loss_head=head, tokens_per_s=round(B * T / dt),
                step_ms=round(dt * 1e3, 2), peak_gib=round(torch.cuda.max_memory_allocated() / 2**30, 2),
                warmup_s=round(warm, 1)))
    del model, opt, fwd
