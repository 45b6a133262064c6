# The training watchdog under stress, on the CPU: dump every thread's stack while the main thread and two others run Python.
# About 6 ms per dump: 30 s for the default 5000.
#   python scripts/stress_watchdog.py c N     faulthandler.dump_traceback_later alone (C-level, without the GIL), N dumps
#   python scripts/stress_watchdog.py py N    the training Watchdog (its thread dumps holding the GIL), N dumps
#   python scripts/stress_watchdog.py cost    microseconds per watched block that does not fire, against faulthandler's arm/cancel
# A crash shows as a non-zero exit status (run each a few times: `for r in 1 2 3; do python scripts/stress_watchdog.py c 1000; echo rc=$?; done`).
import faulthandler, os, sys, tempfile, threading, time
import torch
from nsa_nb.telemetry import Watchdog
mode, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5000
tmp = tempfile.mkdtemp()
def rec(k): return 0 if k == 0 else 1 + rec(k - 1)            # a deep Python stack that changes all the time
def busy(s):
    t0 = time.time()
    while time.time() - t0 < s: rec(60); [x * 2 for x in range(30)]
if mode == 'cost':
    wd, x = Watchdog(tmp, 0, timeout=600), torch.randn(256, 256)
    for label, work in (('empty', lambda: None), ('matmul', lambda: x @ x)):
        t0 = time.perf_counter()
        for _ in range(n):
            with wd.watch('s'): work()
        t1 = time.perf_counter()
        for _ in range(n):
            faulthandler.dump_traceback_later(600, repeat=False, file=wd.f, exit=False); work(); faulthandler.cancel_dump_traceback_later()
        t2 = time.perf_counter()
        print(f"{label}: Watchdog.watch {1e6 * (t1 - t0) / n:.1f} us per block, C-level arm/cancel {1e6 * (t2 - t1) / n:.1f} us")
    wd.close(); sys.exit()
stop = False
def worker():
    while not stop: rec(50); [x * 2 for x in range(50)]
for t in [threading.Thread(target=worker, daemon=True) for _ in range(2)]: t.start()
f, wd = open(os.path.join(tmp, 'c.txt'), 'w'), Watchdog(tmp, 0, timeout=0.002)
for i in range(n):
    if mode == 'c':
        faulthandler.dump_traceback_later(0.002, repeat=False, file=f, exit=False); busy(0.006); faulthandler.cancel_dump_traceback_later()
    else:
        with wd.watch(f'step {i}'): busy(0.006)
    if i % 100 == 0: f.truncate(0); f.seek(0)
stop = True
print('survived', mode, n)
