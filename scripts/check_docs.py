"""Check nbdev's docs processing of every notebook, as `nbdev_docs` runs it (CI runs it after scripts/docs.py, which
does the processing; a minute or two on a CPU when nothing is processed yet).

nbdev_docs = (install Quarto) + build the module index + sidebar + `proc_nbs` (nbdev's processors, which insert
and execute a `show_doc` cell for every exported symbol) + `quarto render`. scripts/docs.py runs those steps and then
renders (Quarto where installed, Sphinx where not); this script runs the same steps (`docs.prepare`, which reprocesses
only notebooks changed since the last build), then renders `show_doc` for every name in each module's `__all__` and
checks that the processed notebooks document them, and that every cell that reads a result file (`load_result`,
`show_result`, `result_csv`) carries `#| exec_doc`: nbdev's processing runs only the cells that export, import or
carry it, and a cell it does not run shows its code on the site without its table or plot (GPU cells and the result
helpers' own tests excepted). Run from the repo root: python scripts/check_docs.py
"""
import importlib, json, pkgutil, re, sys
from pathlib import Path
from nbdev.showdoc import show_doc
sys.path.insert(0, str(Path(__file__).parent))
from docs import prepare

cfg, cache = prepare(n_workers=0)                   # raises on any processor or show_doc error

lib = importlib.import_module(cfg.lib_name)
n_ok, failed = 0, []
for m in pkgutil.walk_packages(lib.__path__, cfg.lib_name + '.'):
    if m.name.endswith('_modidx'): continue
    mod = importlib.import_module(m.name)
    for name in getattr(mod, '__all__', []):
        obj = getattr(mod, name)
        # constants get no show_doc from nbdev either (a Triton tl.constexpr is a constant that happens to be callable)
        if not callable(obj) or type(obj).__name__ == 'constexpr': continue
        try:
            assert name in show_doc(obj)._repr_markdown_(), f"{name} missing from its show_doc"
            n_ok += 1
        except Exception as e: failed.append(f"{m.name}.{name}: {e!r}")

for src in sorted(Path(cfg.nbs_path).glob('*.ipynb')):   # each processed notebook, and its rendered show_doc cells
    out = Path(cache)/src.name
    if not out.exists(): failed.append(f"{src.name}: not processed"); continue
    has_export = '#| export' in src.read_text()
    docs = [c for c in json.loads(out.read_text())['cells'] if 'show_doc(' in ''.join(c['source'])]
    if has_export and not any(o.get('data', {}).get('text/markdown') for c in docs for o in c.get('outputs', [])):
        failed.append(f"{src.name}: exports symbols but no show_doc output was rendered")
    else: n_ok += 1
    for c in json.loads(src.read_text())['cells']:                  # measured results: rendered on the page
        s = ''.join(c['source'])
        if c['cell_type'] != 'code' or not re.search(r"(load_result|show_result|result_csv)\(", s): continue
        if re.search(r'^#\|\s*(gpu|export|eval:\s*false|hide)', s, re.M) or 'TemporaryDirectory' in s: continue
        if re.search(r'^#\|\s*(exec_doc|output:\s*asis)\s*$', s, re.M): n_ok += 1
        else: failed.append(f"{src.name}: a cell renders a result file without '#| exec_doc' (the site would show its "
                            f"code alone): {s[:60]!r}")
for f in failed: print('FAIL', f)
print(f"docs: {n_ok} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
