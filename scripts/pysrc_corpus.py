"""This Python's installed sources as one JSON-lines corpus, for training on a node with no network.

One document per .py file of the standard library and site-packages (or the folders given), test folders and
__pycache__ left out, files over --max-file-kb left out (generated tables), identical files kept once. Files are
taken in a fixed pseudo-random order (the hash of their path below the root) until --max-mb of text, so that no
package dominates a capped corpus. Train on it with data.dataset=local data.path=OUT.jsonl.

Usage: python3 scripts/pysrc_corpus.py OUT.jsonl [--max-mb 400] [--max-file-kb 512] [ROOT ...]
"""
import argparse, collections, hashlib, json, sysconfig
from pathlib import Path

SKIP = {'test', 'tests', 'testing', 'idle_test', '__pycache__', 'site-packages', 'dist-packages'}  # the last two: own roots

def sources(roots):
    "(root, path) of every .py file under the roots, outside test folders."
    for root in roots:
        for p in Path(root).rglob('*.py'):
            if p.is_file() and not SKIP & set(p.relative_to(root).parts[:-1]): yield root, p

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('out', help='the .jsonl file to write')
    ap.add_argument('roots', nargs='*', help="folders to read (default: this Python's stdlib and site-packages)")
    ap.add_argument('--max-mb', type=float, default=400, help='stop after this many MB of text')
    ap.add_argument('--max-file-kb', type=float, default=512, help='leave out larger files')
    a = ap.parse_args()
    paths = sysconfig.get_paths()
    roots = a.roots or sorted({paths['stdlib'], paths['purelib'], paths['platlib']})
    files = sorted(sources(roots), key=lambda rp: hashlib.sha1(str(rp[1].relative_to(rp[0])).encode()).hexdigest())
    seen, n, size, pkgs = set(), 0, 0, collections.Counter()
    out = Path(a.out); out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(out.suffix + '.tmp')
    with open(tmp, 'w', encoding='utf-8') as f:
        for root, p in files:
            b = p.read_bytes()
            if len(b) > a.max_file_kb * 1024 or not b.strip(): continue
            h = hashlib.sha1(b).digest()
            if h in seen: continue
            seen.add(h)
            rel = p.relative_to(root)
            f.write(json.dumps(dict(text=b.decode('utf-8', errors='replace'), path=str(rel))) + '\n')
            n, size = n + 1, size + len(b); pkgs[rel.parts[0] if len(rel.parts) > 1 else '(top level)'] += len(b)
            if size >= a.max_mb * 1e6: break
    tmp.replace(out)
    top = ', '.join(f"{k} {v / 1e6:.0f}" for k, v in pkgs.most_common(8))
    print(f"{out}: {n} files, {size / 1e6:.1f} MB of {len(files)} candidates under {', '.join(map(str, roots))}; "
          f"largest shares (MB): {top}")

if __name__ == '__main__': main()
