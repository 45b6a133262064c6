"""Seconds per cell of a notebook run as `nbdev_test --flags FLAGS` runs it (the same skipped cells, one shell, from the
notebook's folder), printed as each cell finishes: which cells make a notebook's test slow, even when a time limit
stops it. Stops at the first failing cell.
Usage: python3 scripts/time_cells.py nbs/NB.ipynb [flag ...]   (e.g. gpu)"""
import os, sys, time
from pathlib import Path
from fastcore.xtras import working_directory
from execnb.shell import CaptureShell
from nbdev.process import NBProcessor
from nbdev.processors import FrontmatterProc

if len(sys.argv) < 2: sys.exit(__doc__)
fn = Path(sys.argv[1]).resolve()
skip = {'notest', 'gpu', 'slow'} - set(sys.argv[2:])                     # settings.ini's tst_flags less the ones asked for
os.environ['IN_TEST'] = '1'
nb = NBProcessor(fn, procs=FrontmatterProc, process=True).nb
shell, total = CaptureShell(fn), time.perf_counter()
with working_directory(fn.parent):
    for i, cell in enumerate(nb.cells):
        direc = getattr(cell, 'directives_', {}) or {}
        if cell.cell_type != 'code' or 'nbdev_export' + '(' in cell.source or skip & direc.keys() or \
           direc.get('eval:', [''])[0].lower() == 'false': continue
        t = time.perf_counter()
        shell.run(cell.source)
        failed = shell.exc is not None
        first = next((l for l in cell.source.splitlines() if not l.startswith('#|')), '')[:70]
        print(f"{time.perf_counter() - t:8.1f} s  cell {i:3d} {'/'.join(k for k in direc if k in ('gpu', 'slow')):8s} {first}",
              flush=True)
        if failed: print(shell.prettytb(fname=fn)); sys.exit(1)
print(f"{time.perf_counter() - total:8.1f} s  in all", flush=True)
