"""What the layer benches share: the best time of a step, and one child process per thread
count (OMP_NUM_THREADS is read when the kernels load, so each count needs a process).

The children keep freed memory for reuse on both sides. meshflow's caching allocator does;
glibc's malloc, which PyTorch's CPU tensors come from, maps a block above a threshold afresh
and unmaps it at free (or trims the heap), the threshold moving as the program runs, so
whether a torch op paid page faults for its output changed from one run (and one case) to
the next. MALLOC_* pins it: blocks come from the heap and stay there (unless the caller sets
these itself)."""
import os
import subprocess
import sys
import time


def timed(step, repeat, warmup=3):
    """The best of `repeat` timed calls of step(), after `warmup` untimed ones, in seconds."""
    for _ in range(warmup):
        step()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        step()
        best = min(best, time.perf_counter() - start)
    return best


def run_children(script, threads, child_args):
    """Runs `script --child --threads n *child_args` for each n in `threads`, with n BLAS and
    OpenMP threads."""
    for n in threads:
        env = dict(MALLOC_MMAP_THRESHOLD_=str(1 << 32), MALLOC_TRIM_THRESHOLD_=str(1 << 36))
        env.update(os.environ, OMP_NUM_THREADS=str(n), OPENBLAS_NUM_THREADS=str(n))
        command = [sys.executable, os.path.abspath(script), "--child", "--threads", str(n), *child_args]
        subprocess.run(command, env=env, check=True)
