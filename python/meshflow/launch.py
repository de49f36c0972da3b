"""Run a script on N ranks: python3 -m meshflow.launch --nproc N [mpirun options] script.py [args].

Options before the script that are not --nproc pass through to mpirun (e.g. --hostfile,
--host), so a job can span several machines. The script is the first argument ending in
.py, or the one after `--` (for a program of another name). Each rank runs the script with the same
Python interpreter as this launcher. Unless set, OMP_NUM_THREADS and OPENBLAS_NUM_THREADS
are set so that the ranks on this machine share its cores instead of oversubscribing them.
"""
import os
import shutil
import sys

USAGE = "usage: python3 -m meshflow.launch --nproc N [mpirun options] script.py [args...]"


def parse(argv):
    nproc, mpirun_options, i = None, [], 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            i += 1
            break
        if arg in ("--nproc", "-n", "-np"):
            if i + 1 >= len(argv):
                raise SystemExit(f"meshflow.launch: {arg} needs a value\n{USAGE}")
            nproc, i = argv[i + 1], i + 2
            continue
        if arg.startswith("--nproc="):
            nproc, i = arg.split("=", 1)[1], i + 1
            continue
        if arg.endswith(".py") and not arg.startswith("-"):
            break
        mpirun_options.append(arg)
        i += 1
    if i >= len(argv):
        raise SystemExit(f"meshflow.launch: no script given\n{USAGE}")
    if nproc is None or not str(nproc).isdigit() or int(nproc) < 1:
        raise SystemExit(f"meshflow.launch: --nproc must be a positive integer, got {nproc!r}\n{USAGE}")
    return int(nproc), mpirun_options, argv[i:]


def command(nproc, mpirun_options, script_and_args, env):
    mpirun = shutil.which("mpirun")
    if mpirun is None:
        raise SystemExit("meshflow.launch: mpirun not found; install openmpi-bin (scripts/build does)")
    threads = str(max(1, (os.cpu_count() or 1) // nproc))
    env.setdefault("OMP_NUM_THREADS", threads)
    env.setdefault("OPENBLAS_NUM_THREADS", env["OMP_NUM_THREADS"])
    cmd = [mpirun, "-n", str(nproc), "--oversubscribe", "--bind-to", "none"]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    for name in ("PYTHONPATH", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MESHFLOW_CHECK_CONSISTENCY"):
        if name in env:
            cmd += ["-x", name]
    return cmd + mpirun_options + [sys.executable, "-u"] + script_and_args


def main(argv=None):
    nproc, mpirun_options, script_and_args = parse(sys.argv[1:] if argv is None else argv)
    env = dict(os.environ)
    cmd = command(nproc, mpirun_options, script_and_args, env)
    os.execvpe(cmd[0], cmd, env)


if __name__ == "__main__":
    main()
