"""README.md from nbs/index.ipynb without Quarto (nbdev_readme needs it): markdown cells as they are, visible code
cells as Python blocks; cells marked `#| hide` or `#| echo: false` are left out. Run from the repo root."""
import json, re
from pathlib import Path

def cell_text(c):
    src = ''.join(c['source'])
    if c['cell_type'] == 'markdown': return src
    if re.search(r'^#\|\s*(hide|echo:\s*false)', src, re.M): return None
    return '```python\n' + '\n'.join(l for l in src.splitlines() if not l.startswith('#|')) + '\n```'

nb = json.loads(Path('nbs/index.ipynb').read_text())
parts = [t for t in map(cell_text, nb['cells']) if t]
md = '\n\n'.join(parts)
md = md.replace('](images/', '](nbs/images/')                     # paths relative to the repo root
md = re.sub(r'\]\((\w+)\.ipynb\)', r'](nbs/\1.ipynb)', md)
md = re.sub(r'^> (.*)$', r'> \1', md, count=1, flags=re.M)
Path('README.md').write_text('<!-- made from nbs/index.ipynb by scripts/make_readme.py: edit the notebook -->\n\n' + md + '\n')
