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


def timed_together(steps, repeat, warmup=3):
    """The best of `repeat` timed calls of each step in `steps`, in seconds, the steps taking
    turns call by call: on a shared machine whose load changes within a run, each side then
    meets the same quiet and busy spells (timing one side's calls, then the other's, gave
    either side a spell the other missed)."""
    for step in steps:
        for _ in range(warmup):
            step()
    best = [float("inf")] * len(steps)
    for _ in range(repeat):
        for i, step in enumerate(steps):
            start = time.perf_counter()
            step()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def compiled_or_none(name, make_step):
    """make_step()'s step for torch.compile, called once here (compiling it, so compiling is
    not timed), or None, with the reason printed, where making or compiling it fails."""
    try:
        step = make_step()
        step()
    except Exception as error:  # noqa: BLE001 (any failure of the compiler stack falls back to eager)
        print(f"{name}: torch.compile failed ({type(error).__name__}: {str(error).splitlines()[0][:200]}); "
              "ratio against eager", flush=True)
        return None
    return step


def child_run(script, n, child_args, capture=False, **env_vars):
    """Runs `script --child --threads n *child_args` with n BLAS and OpenMP threads (and
    env_vars), returning its output where `capture`."""
    env = dict(MALLOC_MMAP_THRESHOLD_=str(1 << 32), MALLOC_TRIM_THRESHOLD_=str(1 << 36))
    env.update(os.environ, OMP_NUM_THREADS=str(n), OPENBLAS_NUM_THREADS=str(n), **env_vars)
    command = [sys.executable, os.path.abspath(script), "--child", "--threads", str(n), *child_args]
    done = subprocess.run(command, env=env, check=True, stdout=subprocess.PIPE if capture else None, text=True)
    return done.stdout


def run_children(script, threads, child_args):
    """child_run for each n in `threads`."""
    for n in threads:
        child_run(script, n, child_args)
