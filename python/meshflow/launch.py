"""Run a script on N ranks: python3 -m meshflow.launch --nproc N [--net-rate RATE] [mpirun options] script.py [args].

Options before the script that are not --nproc pass through to mpirun (e.g. --hostfile,
--host), so a job can span several machines. The script is the first argument ending in
.py, or the one after `--` (for a program of another name). Each rank runs the script with the same
Python interpreter as this launcher. Unless set, OMP_NUM_THREADS and OPENBLAS_NUM_THREADS
are set so that the ranks on this machine share its cores instead of oversubscribing them.

--net-rate RATE (e.g. 4gbit, 500mbit; root only) runs the job as if its ranks talked over a
network of that rate: inside a private network namespace whose loopback is rate-limited
with `tc qdisc ... tbf`, with OpenMPI forced onto TCP over loopback. On one machine ranks
otherwise talk through shared memory, where copying takes CPU and communication cannot
overlap computation; waiting on a network link takes none. The namespace is removed when
the job ends, also after a failure or Ctrl-C.
"""
import os
import re
import shutil
import signal
import subprocess
import sys

USAGE = "usage: python3 -m meshflow.launch --nproc N [--net-rate RATE] [mpirun options] script.py [args...]"
RATE = re.compile(r"^\d+(\.\d+)?([kmg]?bit|[kmg]?bps)$")
TCP_OVER_LOOPBACK = ["--mca", "btl", "tcp,self", "--mca", "btl_tcp_if_include", "lo", "--mca", "oob_tcp_if_include",
                     "lo"]


def split_net_rate(argv):
    """(the --net-rate value or None, argv without it); only options before the script count."""
    rest, rate, i = [], None, 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--" or (arg.endswith(".py") and not arg.startswith("-")):
            rest += argv[i:]
            break
        if arg == "--net-rate" or arg.startswith("--net-rate="):
            if "=" in arg:
                rate, i = arg.split("=", 1)[1], i + 1
            elif i + 1 < len(argv):
                rate, i = argv[i + 1], i + 2
            else:
                raise SystemExit(f"meshflow.launch: --net-rate needs a value\n{USAGE}")
            if not RATE.match(rate):
                raise SystemExit(f"meshflow.launch: --net-rate {rate!r} is not a rate tc understands; expected e.g. "
                                 f"4gbit, 500mbit or 100mbps\n{USAGE}")
            continue
        rest.append(arg)
        i += 1
    return rate, rest


def rate_bytes_per_s(rate):
    number, unit = re.match(r"^([\d.]+)(.*)$", rate).groups()
    scale = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9}[unit[0] if unit[0] in "kmg" else ""]
    return float(number) * scale / (8 if unit.endswith("bit") else 1)


def run_with_net_rate(cmd, env, rate):
    """Runs cmd in a new network namespace whose loopback is limited to `rate`; returns its
    exit code. The namespace is deleted whatever happens."""
    if os.geteuid() != 0:
        raise SystemExit("meshflow.launch: --net-rate needs root (ip netns, tc)")
    ns = f"meshflow-{os.getpid()}"
    # tbf's bucket: at least two of loopback's largest packets (64 KiB), else they are
    # dropped; otherwise about 1 ms of traffic. A bigger bucket fills while a rank computes
    # and then sends that much at once for free, which flatters traffic that comes in bursts
    # (blocking mode) over traffic spread through the step (overlap).
    burst = max(128 * 1024, int(rate_bytes_per_s(rate) / 1000))
    setup = [["ip", "netns", "add", ns],
             ["ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up"],
             ["ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", "lo", "root", "tbf", "rate", rate,
              "burst", str(burst), "latency", "100ms"]]
    child = None
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}

    def forward(sig, _frame):
        if child is not None and child.poll() is None:
            child.send_signal(sig)
    try:
        for step in setup:
            done = subprocess.run(step, capture_output=True, text=True)
            if done.returncode:
                raise SystemExit(f"meshflow.launch: {' '.join(step)} failed: {done.stderr.strip()}")
        for sig in previous:
            signal.signal(sig, forward)
        child = subprocess.Popen(["ip", "netns", "exec", ns] + cmd, env=env)
        return child.wait()
    finally:
        if child is not None and child.poll() is None:
            child.kill()
            child.wait()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)


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
    for name in ("PYTHONPATH", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MESHFLOW_CHECK_CONSISTENCY",
                 "MESHFLOW_COMM_TIMEOUT", "MESHFLOW_LAUNCH_BLOCKING", "MESHFLOW_NET_RATE"):
        if name in env:
            cmd += ["-x", name]
    return cmd + mpirun_options + [sys.executable, "-u"] + script_and_args


def main(argv=None):
    rate, argv = split_net_rate(sys.argv[1:] if argv is None else argv)
    nproc, mpirun_options, script_and_args = parse(argv)
    env = dict(os.environ)
    if rate is None:
        cmd = command(nproc, mpirun_options, script_and_args, env)
        os.execvpe(cmd[0], cmd, env)
    env["MESHFLOW_NET_RATE"] = rate
    cmd = command(nproc, mpirun_options + TCP_OVER_LOOPBACK, script_and_args, env)
    sys.exit(run_with_net_rate(cmd, env, rate))


if __name__ == "__main__":
    main()
