"""Seconds per cell of a notebook run as `nbdev_test --flags FLAGS` runs it (the same skipped cells, one shell, from the
notebook's folder), printed as each cell finishes: which cells make a notebook's test slow, even when a time limit
stops it. Stops at the first failing cell. `--cells 2,94,98-105`: only those cells and the `#| export` cells, in
notebook order (list the import cells and the helpers' cells the tests need): a notebook's last GPU cells without the
time its earlier tests take to compile on a fresh machine. `--run CODE`: run CODE first
(e.g. `dev = 'cuda'`, a name that a skipped cell defines).
Usage: python3 scripts/time_cells.py nbs/NB.ipynb [flag ...] [--cells LIST] [--run CODE]   (e.g. gpu)"""
import argparse, os, sys, time, traceback
from pathlib import Path
from fastcore.xtras import working_directory
from execnb.shell import CaptureShell
from nbdev.process import NBProcessor
from nbdev.processors import FrontmatterProc

def cell_list(spec:str) -> set:
    "'2,3,98-101' -> {2, 3, 98, 99, 100, 101}"
    return {i for part in spec.split(',') for i in range(int(part.split('-')[0]), int(part.split('-')[-1]) + 1)}

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument('notebook'); ap.add_argument('flags', nargs='*', help="nbdev_test's --flags, e.g. gpu")
ap.add_argument('--cells', type=cell_list, help='only these cells (and the export cells), e.g. 2,94,98-105')
ap.add_argument('--run', help="code to run first, e.g. \"dev = 'cuda'\"")
args = ap.parse_args()
only, pre, fn = args.cells, args.run, Path(args.notebook).resolve()
skip = {'notest', 'gpu', 'slow'} - set(args.flags)                        # settings.ini's tst_flags less the ones asked for
os.environ['IN_TEST'] = '1'
nb = NBProcessor(fn, procs=FrontmatterProc, process=True).nb
shell, total = CaptureShell(fn), time.perf_counter()
with working_directory(fn.parent):
    if pre: shell.run(pre)
    for i, cell in enumerate(nb.cells):
        direc = getattr(cell, 'directives_', {}) or {}
        if cell.cell_type != 'code' or 'nbdev_export' + '(' in cell.source or skip & direc.keys() or \
           direc.get('eval:', [''])[0].lower() == 'false': continue
        if only is not None and i not in only and 'export' not in direc: continue
        t = time.perf_counter()
        shell.run(cell.source)
        failed = shell.exc is not None
        first = next((l for l in cell.source.splitlines() if not l.startswith('#|')), '')[:70]
        print(f"{time.perf_counter() - t:8.1f} s  cell {i:3d} {'/'.join(k for k in direc if k in ('gpu', 'slow')):8s} {first}",
              flush=True)
        if failed: print(''.join(traceback.format_exception(shell.exc))); sys.exit(1)
print(f"{time.perf_counter() - total:8.1f} s  in all", flush=True)
