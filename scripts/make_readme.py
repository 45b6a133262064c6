"""README.md from nbs/index.ipynb without Quarto (nbdev_readme needs it), in a few seconds on a CPU.
Markdown cells are copied as they are and visible code cells become Python blocks; cells marked `#| hide` or
`#| echo: false` are left out, except that a cell marked `#| output: asis` is run (in order, in one namespace, from
the repository root) and what it prints is copied as Markdown, as Quarto renders it: so the README's tables come from
results/ by code, never by hand. Run from the repo root: python scripts/make_readme.py"""
import contextlib, io, json, os, re
from pathlib import Path

os.environ.setdefault('MPLBACKEND', 'Agg')
opt = lambda src, key, val: re.search(rf'^#\|\s*{key}:\s*{val}\s*$', src, re.M)
ns = {}

def run_asis(src):
    "What the cell prints (its text output, rendered as Markdown by Quarto's `output: asis`)."
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf): exec(compile(src, 'nbs/index.ipynb', 'exec'), ns)
    return buf.getvalue().strip()

def cell_text(c):
    src = ''.join(c['source'])
    if c['cell_type'] == 'markdown': return src
    if opt(src, 'output', 'asis'): return run_asis(src) or None
    if re.search(r'^#\|\s*(hide|echo:\s*false)', src, re.M): return None
    return '```python\n' + '\n'.join(l for l in src.splitlines() if not l.startswith('#|')) + '\n```'

nb = json.loads(Path('nbs/index.ipynb').read_text())
parts = [t for t in map(cell_text, nb['cells']) if t]
md = '\n\n'.join(parts)
md = md.replace('](images/', '](nbs/images/')                     # paths relative to the repo root
md = re.sub(r'\]\((\w+)\.ipynb\)', r'](nbs/\1.ipynb)', md)
Path('README.md').write_text('<!-- made from nbs/index.ipynb by scripts/make_readme.py: edit the notebook -->\n\n' + md + '\n')
