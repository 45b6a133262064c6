"""results/kernels/long_profile.json's rows from the printed log of `profile_kernels.py` (one row per shape: the kernels it
lists, cuDNN's time, and the branch sums notebook 12 reads); the file's title, command and notes stay.
Usage: python3 scripts/tuning/long_profile_json.py LOG DEVICE DATE OUT.json"""
import re, sys, json
if len(sys.argv) != 5: sys.exit(__doc__)
log, device, date, out = sys.argv[1:5]
rows, cur = [], None
for line in open(log):
    if line.startswith('=='): cur = None                                 # a header (rows with documents: skipped)
    m = re.match(r"== (\S+) B=(\d+) T=(\d+) HQ.*?: ([\d.]+) ms of kernels per fwd\+bwd, ([\d.]+) ms wall", line)
    if m:
        cur = dict(B=int(m[2]), T=int(m[3]), nsa_ms=float(m[4]), nsa_wall_ms=float(m[5]), kernels={}); rows.append(cur); continue
    m = re.match(r"\s+([\d.]+) ms\s+(\d+)x  (.+)$", line)             # the name as printed (90 characters at most)
    if m and cur is not None:
        ms, n = cur['kernels'].get(m[3].strip(), [0., 0])
        cur['kernels'][m[3].strip()] = [round(ms + float(m[1]), 3), n + int(m[2])]; continue
    m = re.match(r"\s+sdpa .* fwd\+bwd ([\d.]+) ms", line)
    if m: cur['cudnn_ms'] = float(m[1])
for r in rows:
    ks = r['kernels']; pick = lambda f: round(sum(v[0] for k, v in ks.items() if f(k)), 3)
    r['banded_ms'] = pick(lambda k: k.startswith('_banded_'))
    r['scores_topn_ms'] = pick(lambda k: k in ('_sel_scores_kernel', '_topn_kernel'))
    r['selected_ms'] = pick(lambda k: k.startswith('_sel_') and k != '_sel_scores_kernel')
    r['score_launches'] = ks['_sel_scores_kernel'][1]
    r['other_ms'] = round(r['nsa_ms'] - r['banded_ms'] - r['scores_topn_ms'] - r['selected_ms'], 3)
d = json.load(open(out))
d.update(device=device, date=date, rows=rows)
json.dump(d, open(out, 'w'), indent=1); open(out, 'a').write('\n')
print(json.dumps([{k: v for k, v in r.items() if k != 'kernels'} for r in rows], indent=0))
