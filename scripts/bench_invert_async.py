"""Training tokens/s of the 125M model (configs/m7c_125m.yaml numbers, bf16, 32k tokens per step, as `nsa_nb_bench train`) with the
selection backward's inversion started in the forward (this tree: no host wait inside a step) and with the inversion that waited
for its counts in the backward (commit 3c963d4), and dense attention, in one run on one GPU.
Take the old module from git first (on a machine with the history), then carry .pk to the GPU node:
  mkdir -p .pk && git show 3c963d4:nsa_nb/kernels/selection.py > .pk/selection_before.py
  python3 scripts/bench_invert_async.py OUT.json [seq_len ...]      (default 2048 8192 32768)"""
import sys, json
import torch
import nsa_nb.kernels.nsa as kn
from _versions import load_old, train_with

if len(sys.argv) < 2: sys.exit(__doc__)
before = load_old('kernels.selection_before', '.pk/selection_before.py')
after = kn.selected_attention_triton
out = dict(device=torch.cuda.get_device_name(), torch=torch.__version__, rows=[])
for T in [int(x) for x in sys.argv[2:]] or [2048, 8192, 32768]:
    for name, attn, fn in (('dense', 'dense', after), ('nsa_waiting', 'nsa', before.selected_attention_triton), ('nsa_async', 'nsa', after)):
        r = train_with(kn, 'selected_attention_triton', fn, attn, T)       # what nsa_branches calls
        r['version'] = name; out['rows'].append(r)
        print(json.dumps({k: r[k] for k in ('version', 'seq_len', 'batch_size', 'tokens_per_s', 'step_ms', 'peak_mem_gib')}), flush=True)
        json.dump(out, open(sys.argv[1], 'w'), indent=1)
