"""Run a script on N ranks, on this machine or several:

    python3 -m meshflow.launch --nproc N [mpirun options] script.py [args]
    python3 -m meshflow.launch --hosts a,b --nproc-per-host K script.py [args]
    python3 -m meshflow.launch --hostfile FILE --nproc N script.py [args]
    python3 -m meshflow.launch --sim-hosts H --nproc N [--net-rate RATE] script.py [args]
    python3 -m meshflow.launch --standalone --nproc_per_node N script.py [args]   (torchrun's)

torchrun's options for one node are taken too: --nnodes 1, --node_rank 0, --master_addr and
--master_port (they set MASTER_ADDR and MASTER_PORT), `-m module` for the script, and the
rendezvous, restart and logging options (--rdzv_backend, --max_restarts, --tee ...), which
change nothing: mpirun starts the ranks and restarts none.
Options before the script that are not the launcher's pass through to mpirun (--hostfile,
--host, --mca ...). The script is the first argument ending in .py, or the one after `--`
(for a program of another name). Each rank runs the script with the same Python interpreter
as this launcher (the same path must exist on every host). Ranks fill the hosts in order,
K per host; `mf.env.get_local_rank()` is a rank's index on its host. As torchrun does, each
rank's environment holds RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, GROUP_RANK (its host's
index), GROUP_WORLD_SIZE, ROLE_RANK, ROLE_WORLD_SIZE, ROLE_NAME, TORCHELASTIC_RUN_ID (one per
job), TORCHELASTIC_RESTART_COUNT and TORCHELASTIC_MAX_RESTARTS (0) before its script starts,
and MASTER_ADDR (where the launcher knows rank 0's host) and MASTER_PORT (29500)
unless already set; meshflow itself needs none of them. A rank whose
OMP_NUM_THREADS is unset takes its host's cores / its host's ranks BLAS and OpenMP threads
(meshflow/__init__.py does it before loading the kernels), so hosts of different sizes are
each used fully and none oversubscribed. The job's output passes through the launcher,
which leaves out mpirun's own account of an abort that meshflow has explained (its MPI_Abort
help text) and turns its report of a rank's non-zero exit into one line.

--net-rate RATE (e.g. 4gbit, 500mbit; root only) runs the job as if its ranks talked over a
network of that rate: inside a private network namespace whose loopback is rate-limited
with `tc qdisc ... tbf`, with OpenMPI forced onto TCP over loopback. On one machine ranks
otherwise talk through shared memory, where copying takes CPU and communication cannot
overlap computation; waiting on a network link takes none.

--sim-hosts H (root only) runs the job on H simulated hosts on this machine: network
namespaces joined by a switch, N/H ranks in each, started by mpirun through a launch agent
that enters the namespace instead of ssh (meshflow/_netns.py). Ranks on one host talk
through shared memory, ranks on two hosts over real TCP; with --net-rate each host's link
is limited to RATE each way. The namespaces are removed when the job ends, also after a
failure, Ctrl-C or SIGTERM.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import uuid

from . import _netns

USAGE = ("usage: python3 -m meshflow.launch (--nproc N | --hosts A,B --nproc-per-host K) [--sim-hosts H] "
         "[--net-rate RATE] [mpirun options] script.py [args...]")
RATE = re.compile(r"^\d+(\.\d+)?([kmg]?bit|[kmg]?bps)$")
TCP_OVER_LOOPBACK = ["--mca", "btl", "tcp,self", "--mca", "btl_tcp_if_include", "lo", "--mca", "oob_tcp_if_include",
                     "lo"] + _netns.TCP_PROGRESS_THREAD
# The launcher's own options and whether each takes a value.
OWN = {"--nproc": True, "-n": True, "-np": True, "--net-rate": True, "--sim-hosts": True, "--hosts": True,
       "--nproc-per-host": True, "--nproc-per-node": True, "--nproc_per_node": True, "--nnodes": True,
       "--standalone": False, "--node-rank": True, "--master-addr": True, "--master-port": True}
# torchrun's options that change nothing for one node's job, which mpirun starts (there is no
# rendezvous to make, no agent to restart workers, no per-rank log redirection).
TORCHRUN_IGNORED = {"--rdzv-backend": True, "--rdzv-endpoint": True, "--rdzv-id": True, "--rdzv-conf": True,
                    "--max-restarts": True, "--monitor-interval": True, "--start-method": True, "--role": True,
                    "--log-dir": True, "--redirects": True, "--tee": True, "--local-addr": True,
                    "--local-ranks-filter": True, "--logs-specs": True, "--run-path": False}
OWN.update(TORCHRUN_IGNORED)
# torchrun's spellings, for its command lines: one node's ranks are --nproc; each option also
# with underscores (--node_rank).
CANONICAL = {"-n": "--nproc", "-np": "--nproc", "--nproc-per-node": "--nproc", "--nproc_per_node": "--nproc"}
for _name in list(OWN):
    if _name.startswith("--") and "-" in _name[2:]:
        _underscored = "--" + _name[2:].replace("-", "_")
        OWN.setdefault(_underscored, OWN[_name])
        CANONICAL.setdefault(_underscored, CANONICAL.get(_name, _name))
# How each rank starts: the torchrun variables made from mpirun's own for this rank, then the
# script exec'd in the same process (the same pid for mpirun), so that a script reading them
# at its top, before importing anything, finds them.
# Hosts hold equal numbers of ranks, filled in order, so a rank's host (torchrun's "group", its
# node) is its rank divided by the ranks per host; every rank has torchrun's one role.
RANK_ENV = ("import os, sys\n"
            "for name, mpi in (('RANK', 'OMPI_COMM_WORLD_RANK'), ('WORLD_SIZE', 'OMPI_COMM_WORLD_SIZE'), "
            "('LOCAL_RANK', 'OMPI_COMM_WORLD_LOCAL_RANK'), ('LOCAL_WORLD_SIZE', 'OMPI_COMM_WORLD_LOCAL_SIZE')):\n"
            "    if mpi in os.environ:\n"
            "        os.environ[name] = os.environ[mpi]\n"
            "if 'RANK' in os.environ and 'LOCAL_WORLD_SIZE' in os.environ:\n"
            "    rank, world, per_host = (int(os.environ[n]) for n in ('RANK', 'WORLD_SIZE', 'LOCAL_WORLD_SIZE'))\n"
            "    os.environ.update(GROUP_RANK=str(rank // per_host), GROUP_WORLD_SIZE=str(world // per_host), "
            "ROLE_RANK=str(rank), ROLE_WORLD_SIZE=str(world), ROLE_NAME='default')\n"
            "os.execv(sys.executable, [sys.executable, '-u'] + sys.argv[1:])\n")
# What torchrun's agent sets for every rank of a job (torch.distributed.is_torchelastic_launched
# reads the run id); the launcher restarts nothing.
ELASTIC_ENV = {"TORCHELASTIC_RESTART_COUNT": "0", "TORCHELASTIC_MAX_RESTARTS": "0"}


def fail(message):
    raise SystemExit(f"meshflow.launch: {message}\n{USAGE}")


def positive(option, value):
    if not str(value).isdigit() or int(value) < 1:
        fail(f"{option} must be a positive integer, got {value!r}")
    return int(value)


def parse(argv):
    """({launcher option: value}, mpirun options, [script, args...])."""
    own, mpirun_options, i = {}, [], 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            i += 1
            break
        if arg.endswith(".py") and not arg.startswith("-"):
            break
        if arg in ("-m", "--module"):  # torchrun's `-m package.module args`: python3 -m ...
            if i + 1 >= len(argv):
                fail(f"{arg} needs a module name")
            return _checked(own, mpirun_options, ["-m"] + argv[i + 1:])
        name, value = (arg.split("=", 1) + [None])[:2] if arg.startswith("--") else (arg, None)
        if name in OWN:
            if not OWN[name]:
                value = True
            elif value is None:
                if i + 1 >= len(argv):
                    fail(f"{name} needs a value")
                value, i = argv[i + 1], i + 1
            own[CANONICAL.get(name, name)] = value
        else:
            mpirun_options.append(arg)
        i += 1
    if i >= len(argv):
        fail("no script given")
    return _checked(own, mpirun_options, argv[i:])


def _checked(own, mpirun_options, script_and_args):
    if own.pop("--nnodes", "1") not in ("1", "1:1"):
        fail("--nnodes: give the hosts instead (--hosts A,B --nproc-per-host K)")
    if own.pop("--node-rank", "0") != "0":
        fail("--node-rank: one launcher starts every host's ranks; give the hosts instead (--hosts A,B "
             "--nproc-per-host K) and run it once, on one host")
    own.pop("--standalone", None)
    for name in TORCHRUN_IGNORED:
        own.pop(name, None)
    if "--net-rate" in own and not RATE.match(own["--net-rate"]):
        fail(f"--net-rate {own['--net-rate']!r} is not a rate tc understands; expected e.g. 4gbit, 500mbit or 100mbps")
    return own, mpirun_options, script_and_args


def layout(own):
    """(ranks, [hosts] or None, ranks per host or None) from the launcher's options."""
    hosts = None
    if "--sim-hosts" in own:
        if "--hosts" in own:
            fail("--sim-hosts and --hosts exclude each other: the simulated hosts are this machine's")
        hosts = [_netns.host_address(i) for i in range(positive("--sim-hosts", own["--sim-hosts"]))]
    elif "--hosts" in own:
        hosts = [h for h in own["--hosts"].split(",") if h]
        if not hosts:
            fail(f"--hosts {own['--hosts']!r} names no host; expected e.g. --hosts node1,node2")
    per_host = positive("--nproc-per-host", own["--nproc-per-host"]) if "--nproc-per-host" in own else None
    nproc = positive("--nproc", own["--nproc"]) if "--nproc" in own else None
    if hosts is None:
        if per_host is not None:
            fail("--nproc-per-host needs --hosts or --sim-hosts")
        if nproc is None:
            fail("--nproc is missing")
        return nproc, None, None
    if per_host is None:
        if nproc is None:
            fail("give --nproc or --nproc-per-host with the hosts")
        if nproc % len(hosts):
            fail(f"--nproc {nproc} does not divide over {len(hosts)} hosts; expected a multiple of {len(hosts)}")
        per_host = nproc // len(hosts)
    if nproc is not None and nproc != per_host * len(hosts):
        fail(f"--nproc {nproc} is not {len(hosts)} hosts x {per_host} ranks per host")
    return per_host * len(hosts), hosts, per_host


def command(nproc, mpirun_options, script_and_args, env):
    mpirun = shutil.which("mpirun")
    if mpirun is None:
        raise SystemExit("meshflow.launch: mpirun not found; install openmpi-bin (scripts/build does)")
    cmd = [mpirun, "-n", str(nproc), "--oversubscribe", "--bind-to", "none"]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    # Ranks on this host inherit the environment; those on other hosts get what -x names.
    for name in sorted(env):
        if name in ("PYTHONPATH", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MASTER_ADDR", "MASTER_PORT") \
                or name.startswith(("MESHFLOW_", "TORCHELASTIC_")):
            cmd += ["-x", name]
    return cmd + mpirun_options + [sys.executable, "-u", "-c", RANK_ENV] + script_and_args


# What mpirun and meshflow print when a job fails. Once one is seen, mpirun has GRACE seconds
# to end the job: it cannot when a host is unreachable (its link cut, the machine down),
# since it waits for that host's daemon to confirm its ranks are dead, over a connection
# that TCP retries for many minutes. The launcher then kills mpirun; the unreachable host's
# ranks end on their own, through the collective watchdog.
FAILURE_MARKS = (b"MPI_ABORT was invoked", b"mpirun noticed that process rank", b"ORTE has lost communication",
                 b"Ending the job", b"ending the job")
GRACE = 5.0


# What mpirun adds when a rank calls MPI_Abort, which meshflow does only after printing why
# (the rule broken, every rank's call): a boxed help text of MPI's, the count of ranks that
# sent it, and, when the aborting rank dies while sending it, an ORTE_ERROR_LOG line of
# show_help's. Its own words would only hide meshflow's, so the relay leaves them out; its
# boxes on a rank's non-zero exit (after the rank's traceback, or an error every rank
# raised together) become one line naming the rank and its status.
HELP_RULE = b"-" * 74
ABORT_HELP = b"MPI_ABORT was invoked"
NONZERO_EXIT = re.compile(rb"exited with non-zero status.*Process name: \[\[\d+,\d+\],(\d+)\].*Exit code:\s*(\d+)", re.S)
PRIMARY_JOB = b"Primary job  terminated normally"
ABORT_NOISE = (b"sent help message help-mpi-api.txt / mpi-abort", b'"orte_base_help_aggregate" to 0 to see all help')


class _AbortHelpFilter:
    """Passes mpirun's output through, line by line, without its account of MPI_Abort. A
    boxed text is held until its closing rule (or until it is too long to be one of mpirun's)."""

    LONGEST_BOX = 30

    def __init__(self):
        self.partial = b""
        self.box = None

    def feed(self, data):
        out = []
        lines = (self.partial + data).split(b"\n")
        self.partial = lines.pop()
        for line in lines:
            out.append(self._line(line + b"\n"))
        if self.box is None and self.partial and not HELP_RULE.startswith(self.partial[:74]) \
                and not self.partial.startswith(b"["):
            out.append(self.partial)  # a rank's output without a newline yet: not held back
            self.partial = b""
        return b"".join(out)

    def end(self):
        held = b"".join(self.box or []) + self.partial
        self.box, self.partial = None, b""
        return held

    @staticmethod
    def _box(box):
        if ABORT_HELP in box or PRIMARY_JOB in box:
            return b""
        exited = NONZERO_EXIT.search(box)
        if exited:
            rank, code = (int(g) for g in exited.groups())
            return f"meshflow.launch: rank {rank} exited with status {code}, which ended the job\n".encode()
        return box

    def _line(self, line):
        if self.box is not None:
            self.box.append(line)
            if line.rstrip(b"\r\n") == HELP_RULE:
                box, self.box = b"".join(self.box), None
                return self._box(box)
            if len(self.box) > self.LONGEST_BOX:
                box, self.box = b"".join(self.box), None
                return box
            return b""
        if line.rstrip(b"\r\n") == HELP_RULE:
            self.box = [line]
            return b""
        if (b"ORTE_ERROR_LOG" in line and b"show_help.c" in line) or any(n in line for n in ABORT_NOISE):
            return b""
        return line


def _relay(source, sink, failed):
    """Copies `source` to `sink` as it comes, without mpirun's account of an abort; sets
    `failed` on a failure mark."""
    tail = b""
    noise = _AbortHelpFilter()
    for chunk in iter(lambda: os.read(source.fileno(), 65536), b""):
        sink.write(noise.feed(chunk))
        sink.flush()
        tail = tail[-200:] + chunk
        if any(mark in tail for mark in FAILURE_MARKS):
            failed.set()
    sink.write(noise.end())
    sink.flush()


def run_inside(prefix, cmd, env, supervise=False):
    """Runs `prefix + cmd` and returns its exit code, relaying its output (_relay). SIGINT and
    SIGTERM go to the child (mpirun ends the job); a second one kills it. With `supervise`
    (ranks on other hosts), a child still running GRACE seconds after the job failed is
    killed. The caller's `with` block then removes what it made."""
    child = None
    received = []
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}

    def forward(sig, _frame):
        received.append(sig)
        if child is not None and child.poll() is None:
            child.send_signal(sig if len(received) == 1 else signal.SIGKILL)
    try:
        for sig in previous:
            signal.signal(sig, forward)
        child = subprocess.Popen(prefix + cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        failed = threading.Event()
        relays = [threading.Thread(target=_relay, args=(stream, sink, failed), daemon=True)
                  for stream, sink in ((child.stdout, sys.stdout.buffer), (child.stderr, sys.stderr.buffer))]
        for relay in relays:
            relay.start()
        while supervise and child.poll() is None:
            if failed.wait(0.2):
                try:
                    child.wait(GRACE)
                except subprocess.TimeoutExpired:
                    child.kill()
                    print(f"meshflow.launch: the job failed and mpirun had not ended it after {GRACE:g} s (a host "
                          "may be unreachable); killed mpirun", file=sys.stderr, flush=True)
                break
        code = child.wait()
        for relay in relays:
            relay.join(1.0)
        return 128 - code if code < 0 else code  # killed by a signal: as a shell reports it
    finally:
        if child is not None and child.poll() is None:
            child.kill()
            child.wait()
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def main(argv=None):
    own, mpirun_options, script_and_args = parse(sys.argv[1:] if argv is None else argv)
    nproc, hosts, per_host = layout(own)
    rate = own.get("--net-rate")
    env = dict(os.environ)
    if rate is not None:
        env["MESHFLOW_NET_RATE"] = rate
    if hosts is not None:
        env.setdefault("MASTER_ADDR", hosts[0])  # rank 0 runs on the first host
    elif not any(option in mpirun_options for option in ("--host", "-H", "--hostfile", "-hostfile", "--machinefile")):
        env.setdefault("MASTER_ADDR", "127.0.0.1")
    if "--master-addr" in own:
        env["MASTER_ADDR"] = own.pop("--master-addr")
    if "--master-port" in own:
        env["MASTER_PORT"] = own.pop("--master-port")
    env.setdefault("MASTER_PORT", "29500")  # torchrun's default
    env.update(ELASTIC_ENV, TORCHELASTIC_RUN_ID=uuid.uuid4().hex)
    if hosts is not None:
        mpirun_options = ["--host", ",".join(f"{h}:{per_host}" for h in hosts)] + mpirun_options
    if "--sim-hosts" in own:
        env["MESHFLOW_SIM_HOSTS"] = str(len(hosts))  # the ranks' hint (benchmarks report what crossed hosts)
        with _netns.simulated_hosts(len(hosts), rate) as sim:
            cmd = command(nproc, sim.mpirun_options + mpirun_options, script_and_args, env)
            sys.exit(run_inside(sim.prefix, cmd, env, supervise=True))
    if rate is not None:
        # Every byte goes over TCP, moved by OpenMPI's progress thread: the comm workers can
        # test for completion less often (meshflow/comm/mpi/mpi_group.cc, max_pause_ns).
        env.setdefault("MESHFLOW_COMM_POLL_US", "100")
        with _netns.rate_limited_loopback(rate) as prefix:
            cmd = command(nproc, TCP_OVER_LOOPBACK + mpirun_options, script_and_args, env)
            sys.exit(run_inside(prefix, cmd, env))
    cmd = command(nproc, mpirun_options, script_and_args, env)
    sys.exit(run_inside([], cmd, env, supervise=hosts is not None))


if __name__ == "__main__":
    main()
