"""What the layer benches share: the best time of a step, and one child process per thread
count (OMP_NUM_THREADS is read when the kernels load, so each count needs a process).

The children keep freed memory for reuse on both sides. meshflow's caching allocator does;
glibc's malloc, which PyTorch's CPU tensors come from, maps a block above a threshold afresh
and unmaps it at free (or trims the heap), the threshold moving as the program runs, so
whether a torch op paid page faults for its output changed from one run (and one case) to
the next. MALLOC_* pins it: blocks come from the heap and stay there (unless the caller sets
these itself).

Run apart (run_apart), each library is timed in a process of its own, as users run them, the
processes taking turns: in one process both libraries' kernels share one OpenMP runtime
(torch's libgomp, loaded first, serves meshflow and its oneDNN too), and once each has a team
of workers the process has more OpenMP threads than CPUs, so libgomp throttles every team's
spin-wait and a library of many short parallel regions pays a wake-up at each, whichever
library it is. meshflow's process never imports torch."""
import json
import os
import subprocess
import sys
import time

SIDE = os.environ.get("BENCH_SIDE", "")  # in the children of a run apart: the library that child times


def import_torch():
    """torch, or None where it is not installed or in meshflow's process of a run apart.
    Call it before importing meshflow: torch's CUDA libraries clash with symbols meshflow
    loads first."""
    if SIDE == "meshflow":
        return None
    try:
        import torch
    except ImportError:
        return None
    return torch


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


def run_parent(script, args, child_args, with_torch):
    """A bench's parent process: its children for each of args.threads, both libraries in one
    process with args.together (run_children), else apart for args.rounds rounds (run_apart)."""
    if args.together:
        run_children(script, args.threads, child_args)
    else:
        run_apart(script, args.threads, child_args, args.rounds, with_torch)


def child_threads(args, mf, torch):
    """A child's thread count (its --threads), set in both libraries (torch None: absent);
    torch's process of a run apart builds meshflow's weights on one thread (no OpenMP team)."""
    threads = args.threads[0]
    mf.set_num_threads(1 if SIDE == "torch" else threads)
    if torch is not None:
        torch.set_num_threads(threads)
    return threads


def time_sides(name, threads, make_step, with_torch, with_compile, repeat):
    """Times one case's sides, their calls taking turns (timed_together), and reports them
    (child_report): meshflow's (unless this is torch's process of a run apart), then with
    `with_torch` torch eager's and with `with_compile` too torch.compile's; make_step(label)
    -> that side's step, or None where it has none (a compile that failed)."""
    labels = ([] if SIDE == "torch" else ["meshflow"]) + (["torch"] + ["compile"] * with_compile) * with_torch
    steps = [(label, make_step(label)) for label in labels]
    timed = [(label, step) for label, step in steps if step]
    times = dict(zip([label for label, _ in timed], timed_together([step for _, step in timed], repeat)))
    child_report(name, threads, {label: step and (times[label], None) for label, step in steps})


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


def report(name, threads, results):
    """The line of one case: results maps each side's label to (seconds, first loss or None)
    or to None where that side failed; ratio = the best of the other sides' times /
    meshflow's (> 1: meshflow faster)."""
    line = f"{name:17s} threads={threads}"
    for label, result in results.items():
        line += f"  {label} failed" if result is None else f"  {label} {result[0] * 1e3:8.2f} ms"
        if result and result[1] is not None:
            line += f" (loss {result[1]:.4f})"
    times = {label: result[0] for label, result in results.items() if result}
    if "meshflow" in times and len(times) > 1:
        line += f"  ratio {min(t for label, t in times.items() if label != 'meshflow') / times['meshflow']:5.2f}"
    print(line, flush=True)


def child_report(name, threads, results):
    """report() in a child of a run apart: the results as a row for run_apart to gather."""
    if SIDE:
        print(json.dumps({"case": name, "results": results}), flush=True)
    else:
        report(name, threads, results)


def run_apart(script, threads, child_args, rounds, with_torch):
    """For each n in `threads`: meshflow's child process and (`with_torch`) torch's take turns
    for `rounds` rounds (BENCH_SIDE tells each child its side; children report with
    child_report), then each case's line with the best time of every side over all rounds."""
    for n in threads:
        best = {}
        for _ in range(rounds):
            for side in ("meshflow", "torch") if with_torch else ("meshflow",):
                for row in child_run(script, n, child_args, capture=True, BENCH_SIDE=side).splitlines():
                    if not row.startswith("{"):
                        print(row, flush=True)  # what a child says besides its results (a compile failure)
                        continue
                    row = json.loads(row)
                    case = best.setdefault(row["case"], {})
                    for label, result in row["results"].items():
                        known = case.get(label, ())
                        case[label] = result if not known or (result and result[0] < known[0]) else known
        for name, results in best.items():
            report(name, n, results)
