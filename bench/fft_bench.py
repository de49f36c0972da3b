"""mf.fft against numpy.fft (pocketfft, in double) in one run, alternately, best of --repeats
timings of --iterations calls each: fft of complex64 batches, rfft and irfft of float32 ones,
and rfft2 of an FNO-sized batch, at powers of two, a smooth size and primes (Bluestein).

    OMP_NUM_THREADS=1 PYTHONPATH=build/python /usr/bin/python3 bench/fft_bench.py [--repeats 5]

Ratios above 1 mean meshflow is slower. Each meshflow call includes the op's dispatch and a
.numpy() read of the result, so that the work is done when the clock stops; NumPy's reads
nothing more.
"""
import argparse
import time

import numpy as np

import meshflow as mf


def best(fn, iterations, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(iterations):
            fn()
        times.append((time.perf_counter() - start) / iterations)
    return min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=20)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    cases = []
    for batch, n in ((64, 256), (64, 1024), (16, 4096), (8, 65536), (64, 1000), (64, 1009), (16, 4099)):
        z = (rng.standard_normal((batch, n)) + 1j * rng.standard_normal((batch, n))).astype(np.complex64)
        x = rng.standard_normal((batch, n)).astype(np.float32)
        tz, tx = mf.tensor(z), mf.tensor(x)
        half = np.fft.rfft(x)
        th = mf.tensor(half.astype(np.complex64))
        # (default arguments bind this iteration's arrays)
        cases += [(f"fft   [{batch}, {n}] complex64", lambda tz=tz: mf.fft.fft(tz).numpy(), lambda z=z: np.fft.fft(z)),
                  (f"rfft  [{batch}, {n}] float32", lambda tx=tx: mf.fft.rfft(tx).numpy(), lambda x=x: np.fft.rfft(x)),
                  (f"irfft [{batch}, {n}] complex64", lambda th=th, n=n: mf.fft.irfft(th, n=n).numpy(),
                   lambda half=half, n=n: np.fft.irfft(half, n=n))]
    y = rng.standard_normal((20, 32, 64, 64)).astype(np.float32)
    ty = mf.tensor(y)
    cases.append(("rfft2 [20, 32, 64, 64] float32", lambda: mf.fft.rfft2(ty).numpy(), lambda: np.fft.rfft2(y)))
    print(f"{'case':34s} {'meshflow':>11s} {'numpy':>11s} {'ratio':>7s}")
    for name, ours, theirs in cases:
        ours(), theirs()  # plans built, memory touched
        t_ours = best(ours, args.iterations, args.repeats)
        t_np = best(theirs, args.iterations, args.repeats)
        print(f"{name:34s} {t_ours * 1e3:9.3f}ms {t_np * 1e3:9.3f}ms {t_ours / t_np:7.2f}")


if __name__ == "__main__":
    main()
