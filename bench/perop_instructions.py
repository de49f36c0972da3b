"""Instructions per call of the small-op surface (dispatch_bench.py's SURFACE table: views,
setitem, arithmetic, creation, where, matmul, a tiny MLP step, ...), meshflow beside PyTorch,
counted by valgrind's callgrind. Unlike a time, a count does not change with the load of a
shared machine, so two builds compare call by call (A/B: run it with each build's PYTHONPATH).

    PYTHONPATH=build/python:$(echo /root/tv/lib/python3*/site-packages) python3 bench/perop_instructions.py
    ... bench/perop_instructions.py --calls 300 --cases "x.t()" "zeros(3)" --keep /tmp/cg

Each library runs in its own process under callgrind (PyTorch where it imports). Per case:
warm-up calls, the counters zeroed, --calls calls (and for meshflow one mf.synchronize(), so
the VM's work is in the count), the counts dumped: callgrind's client requests, from a few
lines of C compiled here with the system's cc against valgrind's callgrind.h. Every thread's
instructions count, the Python loop's own too (the `noop` row). --keep leaves the dumps,
one per case, for callgrind_annotate --inclusive=yes. Needs valgrind (with its headers) and cc.
"""
import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile

MARKERS = r"""
#include <valgrind/callgrind.h>
void zero(void) { CALLGRIND_ZERO_STATS; }
void dump(const char* name) { CALLGRIND_DUMP_STATS_AT(name); }
"""


def child(library, calls, cases, markers):
    """Runs under callgrind: each case's calls between a zero and a dump of the counters."""
    import ctypes
    if library == "meshflow":
        sys.modules["torch"] = None  # dispatch_bench imports it where it can: not in this process
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import dispatch_bench
    if library == "torch":
        import torch as lib
        lib.set_num_threads(1)
        synchronize = lambda: None  # noqa: E731 - its CPU ops are done when they return
    else:
        import meshflow as lib
        synchronize = lib.synchronize
    counters = ctypes.CDLL(markers)
    surface = {"noop": lambda t: None, **dispatch_bench.SURFACE}
    for name in cases:
        f, t = surface[name], dispatch_bench.surface_tensors(lib)
        for _ in range(20):
            f(t)
        synchronize()
        counters.zero()
        for _ in range(calls):
            f(t)
        synchronize()
        counters.dump(name.encode())


def counts(directory):
    """{case: instructions} of the dumps in `directory`."""
    found = {}
    for file in os.listdir(directory):
        name = total = None
        with open(os.path.join(directory, file), errors="replace") as f:
            for line in f:
                if line.startswith("desc: Trigger: Client Request: "):
                    name = line.split(": ", 3)[-1].rstrip("\n")
                elif line.startswith(("summary:", "totals:")) and total is None:
                    total = int(line.split()[1])
        if name is not None and total is not None:
            found[name] = total
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=300, help="calls per case counted")
    parser.add_argument("--cases", nargs="+", help="SURFACE's rows to count (default: all)")
    parser.add_argument("--keep", help="a directory to leave the callgrind dumps in")
    parser.add_argument("--child", nargs=2, metavar=("LIBRARY", "MARKERS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    if args.child:
        child(args.child[0], args.calls, args.cases, args.child[1])
        return
    libraries = ["meshflow"] + (["torch"] if importlib.util.find_spec("torch") else [])
    sys.modules["torch"] = None  # only the names of the cases are read here
    import dispatch_bench
    cases = ["noop"] + (args.cases or list(dispatch_bench.SURFACE))
    with tempfile.TemporaryDirectory() as scratch:
        source, markers = os.path.join(scratch, "markers.c"), os.path.join(scratch, "markers.so")
        with open(source, "w") as f:
            f.write(MARKERS)
        subprocess.run(["cc", "-O1", "-shared", "-fPIC", "-o", markers, source], check=True)
        per_call = {}
        for library in libraries:
            out = os.path.join(args.keep or scratch, library)
            os.makedirs(out, exist_ok=True)
            command = ["valgrind", "--tool=callgrind", "-q", f"--callgrind-out-file={out}/cg.%p", sys.executable,
                       os.path.abspath(__file__), "--child", library, markers, "--calls", str(args.calls),
                       "--cases", *cases]
            subprocess.run(command, check=True, env={**os.environ, "OMP_NUM_THREADS": "1"})
            per_call[library] = {k: v / args.calls for k, v in counts(out).items()}
    print(f"instructions per call (callgrind), {args.calls} calls per case after warm-up")
    print(f"{'call':<22} {'meshflow':>10}" + (f" {'torch':>10} {'mf/torch':>9}" if len(libraries) > 1 else ""))
    for case in cases:
        mine = per_call["meshflow"].get(case)
        line = f"{case:<22} {mine:>10.0f}" if mine is not None else f"{case:<22} {'-':>10}"
        theirs = per_call.get("torch", {}).get(case)
        if theirs is not None and mine is not None:
            line += f" {theirs:>10.0f} {mine / theirs:>8.2f}x"
        print(line)


if __name__ == "__main__":
    main()
