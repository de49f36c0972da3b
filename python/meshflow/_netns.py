"""Network namespaces for the launcher: a rate-limited loopback (--net-rate) and simulated
hosts joined by a switch (--sim-hosts). Root only; everything made here is removed when the
`with` block ends, also after a failure, Ctrl-C or SIGTERM (the launcher turns those into
exceptions that unwind through here).

A simulated job's layout (P is "meshflow-<launcher pid>"):
- namespace P-sw holds the switch, a bridge with address 10.0.0.254, and runs mpirun;
- namespace P-h<i> is host i: its own loopback and eth0 = 10.0.0.<i+1>, one end of a veth
  pair whose other end is a port of the bridge;
- mpirun starts its daemons through a launch agent (in place of ssh) that enters the host's
  namespace and a UTS namespace of its own named sim<i>, so OpenMPI sees H separate
  machines: ranks of one host talk through shared memory, ranks of two hosts over TCP.
Each job has namespaces of its own, so two jobs never share addresses, and nothing here
touches the machine's own interfaces. A launcher killed outright (SIGKILL) cannot remove its
namespaces; the next launcher that makes namespaces removes those of launchers no longer
running, so they do not pile up across jobs.
"""
import contextlib
import dataclasses
import os
import re
import subprocess
import tempfile

SUBNET = "10.0.0.0/24"
# OpenMPI's TCP transport in a thread of its own that sleeps in epoll until a socket is
# ready: a transfer progresses while the rank computes, where otherwise it moves only
# when the rank's comm worker calls into MPI (bench/overlap_bench.py: less CPU per byte
# and more of it hidden).
TCP_PROGRESS_THREAD = ["--mca", "btl_tcp_progress_thread", "1"]
SWITCH_ADDRESS = "10.0.0.254"


def host_address(i):
    return f"10.0.0.{i + 1}"


def rate_bytes_per_s(rate):
    number, unit = re.match(r"^([\d.]+)(.*)$", rate).groups()
    scale = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9}[unit[0] if unit[0] in "kmg" else ""]
    return float(number) * scale / (8 if unit.endswith("bit") else 1)


def _run(step):
    done = subprocess.run(step, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"meshflow.launch: {' '.join(step)} failed: {done.stderr.strip()}")


def _limit(ns, device, rate):
    """Limits what `device` in namespace `ns` sends to `rate` with a token bucket filter."""
    # tbf's bucket: at least two of the largest packets (64 KiB on loopback), else they are
    # dropped; otherwise about 1 ms of traffic. A bigger bucket fills while a rank computes
    # and then sends that much at once for free, which flatters traffic that comes in bursts
    # (blocking mode) over traffic spread through the step (overlap).
    burst = max(128 * 1024, int(rate_bytes_per_s(rate) / 1000))
    _run(["ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", device, "root", "tbf", "rate", rate,
          "burst", str(burst), "latency", "100ms"])


def _remove(namespaces):
    """Kills what still runs in `namespaces` (daemons of a job that failed) and deletes them."""
    for ns in namespaces:
        pids = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True).stdout.split()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid), 9)
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def orphaned_namespaces():
    """This machine's meshflow namespaces whose launcher no longer runs."""
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    orphans = []
    for line in listed.splitlines():
        found = re.match(r"^(meshflow-(\d+)(-\w+)?)\b", line)
        if found and not _running(int(found.group(2))):
            orphans.append(found.group(1))
    return orphans


def _running(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _need_root(option):
    if os.geteuid() != 0:
        raise SystemExit(f"meshflow.launch: {option} needs root (ip netns, tc)")
    _remove(orphaned_namespaces())


@contextlib.contextmanager
def rate_limited_loopback(rate):
    """A namespace whose loopback sends at most `rate`; yields the prefix that runs a
    command inside it."""
    _need_root("--net-rate")
    ns = f"meshflow-{os.getpid()}"
    try:
        _run(["ip", "netns", "add", ns])
        _run(["ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up"])
        _limit(ns, "lo", rate)
        yield ["ip", "netns", "exec", ns]
    finally:
        _remove([ns])


@dataclasses.dataclass
class SimHosts:
    """What a job on simulated hosts needs: `prefix` runs mpirun in the switch namespace,
    `hosts` are the hosts' addresses, `mpirun_options` the launch agent and transports.
    Host i's link is the bridge port `port<i>` in the switch namespace: `ip netns exec
    meshflow-<launcher pid>-sw ip link set port<i> down` cuts it, as a pulled cable would."""
    prefix: list
    hosts: list
    mpirun_options: list


AGENT = """#!/bin/sh
# meshflow's launch agent for simulated hosts: called by mpirun as ssh would be
# ([options] host command...); runs the command inside the host's namespaces.
while [ $# -gt 0 ]; do case "$1" in -*) shift ;; *) break ;; esac; done
host=$1
shift
case "$host" in
{cases}
  *) echo "meshflow launch agent: unknown simulated host $host" >&2; exit 1 ;;
esac
exec ip netns exec "$ns" unshare --uts /bin/sh -c "hostname $name && $*"
"""


@contextlib.contextmanager
def simulated_hosts(count, rate=None):
    """`count` hosts in namespaces joined by a switch, each link limited to `rate` in each
    direction when given; yields a SimHosts."""
    _need_root("--sim-hosts")
    if count < 1 or count > 250:
        raise SystemExit(f"meshflow.launch: --sim-hosts must be between 1 and 250, got {count}")
    prefix = f"meshflow-{os.getpid()}"
    switch = f"{prefix}-sw"
    hosts = [f"{prefix}-h{i}" for i in range(count)]
    made = []
    with tempfile.TemporaryDirectory(prefix="meshflow-agent-") as scratch:
        try:
            _run(["ip", "netns", "add", switch])
            made.append(switch)
            in_switch = ["ip", "netns", "exec", switch]
            _run(in_switch + ["ip", "link", "set", "lo", "up"])
            _run(in_switch + ["ip", "link", "add", "br0", "type", "bridge"])
            _run(in_switch + ["ip", "addr", "add", f"{SWITCH_ADDRESS}/24", "dev", "br0"])
            _run(in_switch + ["ip", "link", "set", "br0", "up"])
            for i, ns in enumerate(hosts):
                _run(["ip", "netns", "add", ns])
                made.append(ns)
                inside = ["ip", "netns", "exec", ns]
                _run(inside + ["ip", "link", "set", "lo", "up"])
                _run(["ip", "link", "add", "eth0", "netns", ns, "type", "veth", "peer", "name", f"port{i}",
                      "netns", switch])
                _run(inside + ["ip", "addr", "add", f"{host_address(i)}/24", "dev", "eth0"])
                _run(inside + ["ip", "link", "set", "eth0", "up"])
                _run(in_switch + ["ip", "link", "set", f"port{i}", "master", "br0"])
                _run(in_switch + ["ip", "link", "set", f"port{i}", "up"])
                if rate is not None:
                    _limit(ns, "eth0", rate)  # what host i sends
                    _limit(switch, f"port{i}", rate)  # what host i receives
            cases = "\n".join(f"  {host_address(i)}) ns={ns} name=sim{i} ;;" for i, ns in enumerate(hosts))
            agent = os.path.join(scratch, "agent")
            with open(agent, "w") as f:
                f.write(AGENT.format(cases=cases))
            os.chmod(agent, 0o755)
            os.chmod(scratch, 0o755)
            options = (["--mca", "plm_rsh_agent", agent, "--mca", "btl", "tcp,self,vader",
                        "--mca", "btl_tcp_if_include", SUBNET, "--mca", "oob_tcp_if_include", SUBNET]
                       + TCP_PROGRESS_THREAD)
            yield SimHosts(in_switch, [host_address(i) for i in range(count)], options)
        finally:
            _remove(made[::-1])
