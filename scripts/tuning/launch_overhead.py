"""Host cost of one Triton launch in this environment: a kernel with N pointer/int arguments, launched 2000 times."""
import time, torch, triton, triton.language as tl
@triton.jit
def k4(A, B, C, D, n, BLOCK: tl.constexpr):
    i = tl.program_id(0)
@triton.jit
def k30(A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15, n0, n1, n2, n3, n4, n5, n6, n7, s0, s1,
        BLOCK: tl.constexpr, C1: tl.constexpr, C2: tl.constexpr, C3: tl.constexpr):
    i = tl.program_id(0)
x = torch.empty(1024, device='cuda')
def t(f, n=2000):
    for _ in range(50): f()
    torch.cuda.synchronize(); t0 = time.perf_counter()
    for _ in range(n): f()
    dt = (time.perf_counter() - t0) / n * 1e6; torch.cuda.synchronize(); return dt
print('k4 ', t(lambda: k4[(1,)](x, x, x, x, 1000, BLOCK=64)), 'us')
print('k30', t(lambda: k30[(1,)](*[x]*16, *[1000+i*16 for i in range(8)], 0.5, 0.25, BLOCK=64, C1=1, C2=2, C3=3)), 'us')
print('empty', t(lambda: torch.empty(4096, device='cuda')), 'us')
print('zeros', t(lambda: torch.zeros(4096, device='cuda')), 'us')
