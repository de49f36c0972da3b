"""The launcher (meshflow.launch): its options and the mpirun command it makes, real jobs on 2
ranks, jobs on simulated hosts (network namespaces, TCP between hosts), and what happens when
something breaks: a rank that fails, exits early, is killed, stops answering, or whose host's
link is cut. Every job runs under a timeout that kills it, so a hang fails its test."""
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

from jobs import PYTHON, launch_script, run, start, finish, write_script
from meshflow import _netns, launch

def netns_permitted():
    """Whether this process may make network namespaces (root, and not a container that
    forbids it)."""
    if os.geteuid() != 0:
        return False
    probe = f"meshflow-probe-{os.getpid()}"
    if subprocess.run(["ip", "netns", "add", probe], capture_output=True).returncode:
        return False
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return True


needs_root = pytest.mark.skipif(not netns_permitted(),
                                reason="network namespaces are not permitted here (needs root and ip netns)")


def namespaces():
    return subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout


def assert_no_namespaces_left():
    # Namespaces of launchers still running belong to other jobs on this machine (a test
    # suite run beside this one); those of ended launchers must be gone.
    assert not _netns.orphaned_namespaces(), namespaces()


# ---------------------------------------------------------------------------------------------
# Options and the mpirun command (pure functions).

@pytest.mark.parametrize("argv, expected", [
    (["--nproc", "2", "train.py"], ({"--nproc": "2"}, [], ["train.py"])),
    (["--nproc=3", "train.py"], ({"--nproc": "3"}, [], ["train.py"])),
    (["-n", "4", "train.py"], ({"--nproc": "4"}, [], ["train.py"])),
    (["-np", "4", "train.py"], ({"--nproc": "4"}, [], ["train.py"])),
    (["--nproc", "2", "--hostfile", "h", "train.py"], ({"--nproc": "2"}, ["--hostfile", "h"], ["train.py"])),
    (["--hostfile", "h", "--nproc", "2", "--host", "a,b", "train.py"],
     ({"--nproc": "2"}, ["--hostfile", "h", "--host", "a,b"], ["train.py"])),
    (["--hosts", "a,b", "--nproc-per-host=2", "--mca", "x", "y", "t.py"],
     ({"--hosts": "a,b", "--nproc-per-host": "2"}, ["--mca", "x", "y"], ["t.py"])),
    (["--sim-hosts", "2", "--nproc", "4", "--net-rate", "1gbit", "t.py"],
     ({"--sim-hosts": "2", "--nproc": "4", "--net-rate": "1gbit"}, [], ["t.py"])),
    # Everything after the script belongs to it, even options the launcher knows.
    (["--nproc", "2", "train.py", "--nproc", "5", "-x", "--lr=0.1", "--net-rate", "x", "data.py"],
     ({"--nproc": "2"}, [], ["train.py", "--nproc", "5", "-x", "--lr=0.1", "--net-rate", "x", "data.py"])),
    (["--nproc", "2", "--", "my_program", "-v"], ({"--nproc": "2"}, [], ["my_program", "-v"])),
    (["--standalone", "--nnodes=1", "--nproc_per_node=2", "t.py"], ({"--nproc": "2"}, [], ["t.py"])),
    (["--nproc-per-node", "4", "t.py"], ({"--nproc": "4"}, [], ["t.py"])),
    (["--nnodes=1", "--nproc_per_node=2", "--node_rank=0", "--master_addr=10.1.1.1", "--master-port", "29501",
      "--rdzv_backend=c10d", "--rdzv-endpoint", "localhost:0", "--max_restarts=0", "--tee", "3", "t.py", "--lr", "1"],
     ({"--nproc": "2", "--master-addr": "10.1.1.1", "--master-port": "29501"}, [], ["t.py", "--lr", "1"])),
    (["--nproc_per_node", "2", "-m", "pkg.train", "--epochs", "3"], ({"--nproc": "2"}, [], ["-m", "pkg.train", "--epochs", "3"])),
], ids=["--nproc", "--nproc=", "-n", "-np", "hostfile", "options around nproc", "hosts", "sim-hosts",
        "script args", "--", "torchrun's", "torchrun's dashes", "torchrun's one-node options", "torchrun's -m"])
def test_parse(argv, expected):
    assert launch.parse(argv) == expected


@pytest.mark.parametrize("argv, expected", [
    (["--nproc", "3", "t.py"], (3, None, None)),
    (["--hosts", "a,b", "--nproc-per-host", "2", "t.py"], (4, ["a", "b"], 2)),
    (["--hosts", "a,b,c", "--nproc", "6", "t.py"], (6, ["a", "b", "c"], 2)),
    (["--hosts", "a", "--nproc", "2", "--nproc-per-host", "2", "t.py"], (2, ["a"], 2)),
    (["--sim-hosts", "2", "--nproc", "4", "t.py"], (4, ["10.0.0.1", "10.0.0.2"], 2)),
    (["--sim-hosts", "3", "--nproc-per-host", "1", "t.py"], (3, ["10.0.0.1", "10.0.0.2", "10.0.0.3"], 1)),
])
def test_layout(argv, expected):
    assert launch.layout(launch.parse(argv)[0]) == expected


@pytest.mark.parametrize("argv, message", [
    (["--nproc", "2"], "no script given"),
    (["--nnodes", "2", "--nproc_per_node", "2", "t.py"], "give the hosts instead"),
    (["--node_rank", "1", "--nproc_per_node", "2", "t.py"], "one launcher starts every host's ranks"),
    (["--nproc_per_node", "2", "-m"], "-m needs a module name"),
    (["--nproc", "2", "--"], "no script given"),
    ([], "no script given"),
    (["train.py"], "--nproc is missing"),
    (["--nproc", "0", "train.py"], "got '0'"),
    (["--nproc", "-1", "train.py"], "got '-1'"),
    (["--nproc", "two", "train.py"], "got 'two'"),
    (["--nproc=", "train.py"], "got ''"),
    (["--nproc"], "--nproc needs a value"),
    (["--net-rate", "fast", "--nproc", "2", "t.py"], "is not a rate tc understands"),
    (["--net-rate"], "--net-rate needs a value"),
    (["--hosts", "a,b", "--nproc", "3", "t.py"], "--nproc 3 does not divide over 2 hosts"),
    (["--hosts", "a,b", "t.py"], "give --nproc or --nproc-per-host"),
    (["--hosts", ",", "--nproc", "2", "t.py"], "names no host"),
    (["--hosts", "a,b", "--nproc", "2", "--nproc-per-host", "2", "t.py"], "--nproc 2 is not 2 hosts x 2 ranks"),
    (["--nproc-per-host", "2", "t.py"], "--nproc-per-host needs --hosts or --sim-hosts"),
    (["--sim-hosts", "2", "--hosts", "a,b", "--nproc", "2", "t.py"], "exclude each other"),
    (["--sim-hosts", "0", "--nproc", "2", "t.py"], "--sim-hosts must be a positive integer"),
])
def test_option_errors(argv, message):
    with pytest.raises(SystemExit) as error:
        own, _, _ = launch.parse(argv)
        launch.layout(own)
    assert message in str(error.value)
    assert "usage: python3 -m meshflow.launch" in str(error.value)


def test_command():
    env = {"PYTHONPATH": "/somewhere", "MESHFLOW_CHECK_CONSISTENCY": "1", "OMP_NUM_THREADS": "3", "HOME": "/root"}
    cmd = launch.command(2, ["--hostfile", "h"], ["train.py", "--lr", "0.1"], env)
    assert os.path.basename(cmd[0]) == "mpirun"
    assert cmd[cmd.index("-n") + 1] == "2"
    assert cmd[-6:] == ["-u", "-c", launch.RANK_ENV, "train.py", "--lr", "0.1"] and cmd[-7] == sys.executable
    assert cmd[cmd.index("--hostfile") + 1] == "h" and cmd.index("--hostfile") < cmd.index(sys.executable)
    # What ranks on other hosts need is exported; the thread counts only when the user set them.
    exported = {cmd[i + 1] for i, arg in enumerate(cmd) if arg == "-x"}
    assert exported == {"PYTHONPATH", "MESHFLOW_CHECK_CONSISTENCY", "OMP_NUM_THREADS"}
    assert env["OMP_NUM_THREADS"] == "3" and "OPENBLAS_NUM_THREADS" not in env


# ---------------------------------------------------------------------------------------------
# Real jobs on 2 ranks of this machine.

def test_runs_every_rank_with_its_local_rank_and_threads(tmp_path):
    code, out = launch_script(tmp_path, """
        import os, sys
        import numpy as np
        import meshflow as mf
        rank, world = mf.env.get_rank(), mf.env.get_world_size()
        g = mf.tensor(np.full(2, rank + 1.0)).to_global(placement=mf.placement("cpu", ranks=[0, 1]),
                                                        sbp=mf.sbp.partial_sum)
        print(f"rank {rank} of {world} args {sys.argv[1:]} sum {g.numpy().tolist()} local "
              f"{mf.env.get_local_rank()} of {mf.env.get_local_world_size()} threads {os.environ['OMP_NUM_THREADS']}")
    """, OMP_NUM_THREADS=None)
    assert code == 0, out
    threads = max(1, len(os.sched_getaffinity(0)) // 2)  # this machine's cores shared by its 2 ranks
    for rank in (0, 1):
        assert f"rank {rank} of 2 args ['an-arg'] sum [3.0, 3.0] local {rank} of 2 threads {threads}" in out, out


def test_spawn_from_a_plain_python_run_starts_the_job(tmp_path):
    """torch.multiprocessing.spawn's tutorial program, run as `python3 script.py`: the script
    runs again on each rank, where spawn calls fn(rank, *args); a DDP step runs there."""
    script = write_script(tmp_path, """
        import meshflow as mf
        import meshflow.distributed as dist
        import meshflow.multiprocessing as mp

        def work(rank, world, tag):
            dist.init_process_group("gloo", rank=rank, world_size=world)
            model = mf.nn.parallel.DistributedDataParallel(mf.nn.Linear(3, 1))
            model(mf.ones(2, 3) * (rank + 1)).sum().backward()
            grad = model.module.bias.grad.item()
            print(f"{tag} rank {rank} of {dist.get_world_size()} grad {grad}")

        if __name__ == "__main__":
            mp.spawn(work, args=(2, "t"), nprocs=2, join=True)
    """)
    code, out = run([PYTHON, str(script)], timeout=60, cwd=tmp_path)
    assert code == 0, out
    for rank in (0, 1):
        assert f"t rank {rank} of 2 grad 2.0" in out, out
    bad = write_script(tmp_path, """
        import meshflow.multiprocessing as mp
        mp.spawn(print, nprocs=3)
    """, name="bad.py")
    code, out = launch_script(tmp_path, "import runpy; runpy.run_path('bad.py')", timeout=60)
    assert code != 0 and "inside a job of 2 ranks" in out, out


def test_trace_has_every_rank_s_instructions_on_their_streams(tmp_path):
    # MESHFLOW_TRACE=prefix writes a Chrome trace per rank at exit: kernels on the compute
    # stream, boxing on the comm stream, each span well-formed.
    code, out = launch_script(tmp_path, """
        import meshflow as mf
        p = mf.placement("cpu", ranks=[0, 1])
        x = mf.ones(8, 8, placement=p, sbp=mf.sbp.split(0))
        print((mf.matmul(x, x.to_global(sbp=mf.sbp.broadcast)) * 2).sum().item())
    """, timeout=30, MESHFLOW_TRACE=str(tmp_path / "trace"))
    assert code == 0, out
    for rank in (0, 1):
        events = json.loads((tmp_path / f"trace.rank{rank}.json").read_text())["traceEvents"]
        spans = {(e["tid"], e["name"]) for e in events}
        assert ("compute", "matmul") in spans and ("comm", "to_global") in spans, spans
        assert all(e["ph"] == "X" and e["dur"] >= 0 and e["pid"] == rank for e in events)


ABORT_BOX = (b"-" * 74 + b"\nMPI_ABORT was invoked on rank 0 in communicator MPI_COMM_WORLD\nwith errorcode 1.\n\n"
             b"NOTE: invoking MPI_ABORT causes Open MPI to kill all MPI processes.\n" + b"-" * 74 + b"\n")
EXIT_BOX = (b"-" * 74 + b"\nmpirun detected that one or more processes exited with non-zero status, thus causing\n"
            b"the job to be terminated. The first process to do so was:\n\n  Process name: [[24247,1],1]\n"
            b"  Exit code:    3\n" + b"-" * 74 + b"\n")
KILLED_BOX = (b"-" * 74 + b"\nmpirun noticed that process rank 1 with PID 0 on node vm exited on signal 9 (Killed).\n"
              + b"-" * 74 + b"\n")


@pytest.mark.parametrize("cut", [1, 7, 64, 100000])
def test_the_relay_leaves_out_mpiruns_account_of_an_abort_meshflow_explained(cut):
    # After meshflow's own message (the rule, every rank's call), MPI's help text on
    # MPI_Abort and show_help's log lines only hide it; a rank's non-zero exit becomes one
    # line; mpirun's report of a killed rank and the ranks' output pass as they are, in
    # pieces of any size.
    stream = (b"step 1 loss 0.5\nmeshflow: rank 0: ... Ending the job\n" + ABORT_BOX
              + b"[vm:1] [[1,0],0] ORTE_ERROR_LOG: Data unpack would read past end of buffer in file "
                b"../../../orte/util/show_help.c at line 507\n"
              + b"[vm:1] 1 more process has sent help message help-mpi-api.txt / mpi-abort\n"
              + b'[vm:1] Set MCA parameter "orte_base_help_aggregate" to 0 to see all help / error messages\n'
              + EXIT_BOX + KILLED_BOX + b"-" * 74 + b"\nno closing rule: held, then passed at the end\ntail")
    relay = launch._AbortHelpFilter()
    out = b"".join(relay.feed(stream[i:i + cut]) for i in range(0, len(stream), cut)) + relay.end()
    assert out == (b"step 1 loss 0.5\nmeshflow: rank 0: ... Ending the job\n"
                   b"meshflow.launch: rank 1 exited with status 3, which ended the job\n" + KILLED_BOX
                   + b"-" * 74 + b"\nno closing rule: held, then passed at the end\ntail")


@pytest.mark.parametrize("options", [[], ["--hosts", "localhost", "--nproc-per-host", "2"]],
                         ids=["one host (exec)", "--hosts (supervised, output relayed)"])
def test_launch_failure_on_one_rank_ends_the_job(tmp_path, options):
    code, out = launch_script(tmp_path, """
        import numpy as np
        import meshflow as mf
        rank = mf.env.get_rank()
        if rank == 1:
            raise RuntimeError("boom on rank 1")
        # Rank 0 waits in a collective that rank 1 never joins: only ending the job frees it.
        mf.tensor(np.ones(2)).to_global(placement=mf.placement("cpu", ranks=[0, 1]), sbp=mf.sbp.split(0)).numpy()
        print("rank 0 finished")
    """, options=options, timeout=60)
    assert code != 0, out
    assert "RuntimeError: boom on rank 1" in out, out
    assert "rank 0 finished" not in out, out


def test_an_out_of_memory_on_one_rank_that_nothing_read_ends_the_job_non_zero(tmp_path):
    # A rank's own op over its limit: in a job of several ranks it waits for a read the
    # ranks agree on (vm.h); nothing reads it, so exit reports it and the status says so,
    # while the other rank ends cleanly.
    code, out = launch_script(tmp_path, """
        import meshflow as mf
        if mf.env.get_rank() == 1:
            mf.set_memory_limit(1 << 20)
        y = mf.ones(1 << 20)  # 4 MiB
        mf.synchronize()  # this rank's own wait: raises nothing
        print(f"rank {mf.env.get_rank()} synchronized", flush=True)
    """, timeout=60)
    assert code != 0, out
    assert "rank 0 synchronized" in out and "rank 1 synchronized" in out, out
    assert "an error was raised by queued work at exit" in out and "is out of memory" in out, out


def test_stuck_rank_ends_the_job_after_the_collective_timeout(tmp_path):
    # Rank 1 stops answering (SIGSTOP, as a hung host would); rank 0's collective would
    # wait forever: the watchdog ends the job within MESHFLOW_COMM_TIMEOUT, naming the
    # collective, its group and the op that issued it.
    start = time.monotonic()
    code, out = launch_script(tmp_path, """
        import os, signal, time
        import numpy as np
        import meshflow as mf
        os.environ["MESHFLOW_COMM_TIMEOUT"] = "3"
        p = mf.placement("cpu", ranks=[0, 1])
        x = mf.tensor(np.ones((4, 4), np.float32), placement=p, sbp=mf.sbp.split(0))
        w = mf.tensor(np.ones((4, 4), np.float32), placement=p, sbp=mf.sbp.split(0))
        x.numpy()  # both ranks are up and talking
        if mf.env.get_rank() == 1:
            os.kill(os.getpid(), signal.SIGSTOP)
        y = mf.matmul(x, w)  # needs w gathered: a collective on the comm stream
        # No other collective until the watchdog has named this one (a read's own check,
        # issued on this thread, could start before the comm stream's gather under load).
        time.sleep(20)
        print("rank 0 finished", y.numpy().sum())
    """, timeout=60)
    elapsed = time.monotonic() - start
    assert code != 0, out
    assert "has not completed after" in out and "on group [0, 1] issued by matmul" in out, out
    assert "MESHFLOW_COMM_TIMEOUT=3" in out, out
    assert "rank 0 finished" not in out, out
    assert elapsed < 30, f"took {elapsed:.0f} s"


def test_launch_early_exit_on_one_rank_ends_the_job(tmp_path):
    code, out = launch_script(tmp_path, """
        import os, sys
        import numpy as np
        import meshflow as mf
        os.environ["MESHFLOW_EXIT_TIMEOUT"] = "2"
        if mf.env.get_rank() == 1:
            sys.exit(3)  # no exception: only the exit path can notice rank 0 still waits
        mf.tensor(np.ones(2)).to_global(placement=mf.placement("cpu", ranks=[0, 1]), sbp=mf.sbp.split(0)).numpy()
        print("rank 0 finished")
    """)
    assert code != 0, out
    assert "rank 1 exited while other ranks had not" in out, out
    assert "rank 0 finished" not in out, out


# ---------------------------------------------------------------------------------------------
# Faults in a training loop: a rank killed, a rank that stops answering, a host's link cut.
# Each is injected from outside while the job runs; the job must end with a message.

# Data-parallel steps of a tiny MLP, forever: each step all-reduces gradients. Every rank
# prints its pid; rank 0 prints each step.
TRAINING = """
    import os, sys, time
    import numpy as np
    import meshflow as mf
    os.environ["MESHFLOW_COMM_TIMEOUT"] = "3"
    world = mf.env.get_world_size()
    p = mf.placement("cpu", ranks=list(range(world)))
    mf.manual_seed(0)
    model = mf.nn.Sequential(mf.nn.Linear(64, 64), mf.nn.ReLU(), mf.nn.Linear(64, 1))
    model.to_global(placement=p, sbp=mf.sbp.broadcast)
    opt = mf.optim.SGD(model.parameters(), lr=0.01)
    x = mf.tensor(np.ones((8 * world, 64), np.float32), placement=p, sbp=mf.sbp.split(0))
    print(f"rank {mf.env.get_rank()} pid {os.getpid()}", flush=True)
    for step in range(100000):
        loss = (model(x) ** 2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        value = loss.item()
        if mf.env.get_rank() == 0:
            print(f"step {step} loss {value:.4f}", flush=True)
        time.sleep(0.02)
"""


class Job:
    """A job started by the launcher whose output is read while it runs."""

    def __init__(self, tmp_path, options, body=TRAINING):
        script = write_script(tmp_path, body)
        self.proc = start([PYTHON, "-m", "meshflow.launch", *options, str(script)], cwd=tmp_path)
        self.lines, self.out = queue.Queue(), []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for line in self.proc.stdout:
                self.lines.put(line)
        finally:
            self.lines.put(None)  # the end, however reading stopped

    def wait_for(self, text, timeout=60):
        """The first line that contains `text` (fails the test if the job ends first)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                continue
            if line is None:
                break
            self.out.append(line)
            if text in line:
                return line
        self.end()
        pytest.fail(f"no line with {text!r}; output:\n{''.join(self.out)}")

    def end(self, timeout=60):
        """(exit code, whole output, seconds it took to end). Only the reader thread reads
        the job's output; what is left of the job (its session) is killed if the launcher
        overruns or something of it still holds the output open 10 s after the launcher ended."""
        start_wait = time.monotonic()
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            code = None
        elapsed = time.monotonic() - start_wait
        deadline, killed = time.monotonic() + (10 if code is not None else 0), False
        while True:
            try:
                line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                if killed:
                    break  # nothing of the session is left to close the output: what was read is all
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                deadline, killed = time.monotonic() + 10, True
                continue
            if line is None:
                break
            self.out.append(line)
        if code is None:
            pytest.fail(f"the job did not end within {timeout} s; output:\n{''.join(self.out)}")
        return code, "".join(self.out), elapsed

    def pid_of(self, rank):
        return int(self.wait_for(f"rank {rank} pid ").split()[-1])


def cut_link(launcher_pid, host):
    """Takes simulated host `host`'s link down, as a pulled cable would (meshflow/_netns.py)."""
    subprocess.run(["ip", "netns", "exec", f"meshflow-{launcher_pid}-sw", "ip", "link", "set", f"port{host}",
                    "down"], check=True)


def inject(job, fault, rank=1):
    """Injects `fault` into `rank` (or its host) once training runs; returns when."""
    pid = job.pid_of(rank)
    job.wait_for("step 3 ")
    if fault == "kill":
        os.kill(pid, signal.SIGKILL)
    elif fault == "stop":
        os.kill(pid, signal.SIGSTOP)
    else:
        cut_link(job.proc.pid, host=rank)
    return time.monotonic()


def test_killed_rank_ends_the_job_naming_it(tmp_path):
    job = Job(tmp_path, ["--nproc", "2"])
    inject(job, "kill")
    code, out, elapsed = job.end()
    print(f"fault kill on one host: the job ended {elapsed:.1f} s after it")
    assert code != 0, out
    # mpirun reports the first death it processes: rank 1's, or rank 0's when it has already
    # killed rank 0 in answer to rank 1's (a race of its own, as across hosts below).
    assert re.search(r"process rank [01] .*signal 9", out, re.S), out
    assert elapsed < 10, f"the job took {elapsed:.1f} s to end after rank 1 was killed"


@needs_root
@pytest.mark.parametrize("fault", ["kill", "stop", "cut"])
def test_fault_across_simulated_hosts_ends_the_job(tmp_path, fault):
    # 2 hosts with one rank each: the fault hits host 1's rank (or its link).
    job = Job(tmp_path, ["--sim-hosts", "2", "--nproc", "2"])
    inject(job, fault)
    code, out, elapsed = job.end()
    print(f"fault {fault} across hosts: the job ended {elapsed:.1f} s after it")  # for the figures (pytest -s)
    assert code != 0, out
    if fault == "kill":
        # Across hosts mpirun reports the first death it notices: rank 1's, or rank 0's when
        # host 1's daemon has already had rank 0 killed for it (seen about 1 run in 10).
        assert re.search(r"process rank [01] .*signal 9", out, re.S), out
        assert elapsed < 10, f"the job took {elapsed:.1f} s to end after rank 1 was killed"
    else:
        # The watchdog (MESHFLOW_COMM_TIMEOUT=3) names the collective and the op; a cut link
        # also leaves mpirun unable to reach host 1, so the launcher ends mpirun.
        assert "has not completed after" in out and "on group [0, 1] issued by" in out, out
        assert elapsed < 3 + 2 + launch.GRACE + 5, f"the job took {elapsed:.1f} s to end after the fault"
    assert_no_namespaces_left()


# ---------------------------------------------------------------------------------------------
# Simulated hosts.

@needs_root
def test_simulated_hosts_place_ranks_as_real_hosts_would(tmp_path):
    code, out = launch_script(tmp_path, """
        import os, socket
        import numpy as np
        import meshflow as mf
        rank = mf.env.get_rank()
        g = mf.tensor(np.full(2, rank + 1.0)).to_global(placement=mf.placement("cpu", ranks=[0, 1, 2, 3]),
                                                        sbp=mf.sbp.partial_sum)
        with open("/sys/class/net/eth0/address") as f:
            nic = f.read().strip()
        # One file per rank: mpirun forwards the ranks' output in pieces that may interleave.
        with open(f"rank{rank}.txt", "w") as f:
            f.write(f"host {socket.gethostname()} local {mf.env.get_local_rank()} of "
                    f"{mf.env.get_local_world_size()} nic {nic} sum {g.numpy().tolist()}")
    """, nproc=4, timeout=60, options=["--sim-hosts", "2"])
    assert code == 0, out
    nics = {}
    for rank in range(4):
        line = (tmp_path / f"rank{rank}.txt").read_text()
        assert f"host sim{rank // 2} local {rank % 2} of 2" in line and "sum [10.0, 10.0]" in line, out
        nics[rank] = line.split(" nic ")[1].split()[0]
    # Ranks 0, 1 share host 0's network card, ranks 2, 3 host 1's.
    assert nics[0] == nics[1] and nics[2] == nics[3] and nics[0] != nics[2], nics
    assert_no_namespaces_left()


@needs_root
def test_simulated_hosts_are_removed_after_ctrl_c(tmp_path):
    job = Job(tmp_path, ["--sim-hosts", "2", "--nproc", "2"])
    job.wait_for("step 1 ")
    assert f"meshflow-{job.proc.pid}-sw" in namespaces()
    job.proc.send_signal(signal.SIGINT)
    code, out, elapsed = job.end()
    assert code != 0, out
    assert elapsed < 10, f"{elapsed:.1f} s"
    assert_no_namespaces_left()


@needs_root
def test_namespaces_of_a_killed_launcher_are_removed_by_the_next(tmp_path):
    # SIGKILL leaves the launcher no chance to remove its namespaces (nor to end mpirun and
    # the ranks running inside them); the next launcher that makes namespaces removes both.
    job = Job(tmp_path, ["--sim-hosts", "2", "--nproc", "2"])
    job.wait_for("step 1 ")
    job.proc.kill()
    job.proc.wait(timeout=10)
    left = [ns for ns in _netns.orphaned_namespaces() if ns.startswith(f"meshflow-{job.proc.pid}-")]
    assert len(left) == 3, namespaces()
    code, out = launch_script(tmp_path, "print('ran')", nproc=1, timeout=60, options=["--net-rate", "1gbit"])
    assert code == 0 and "ran" in out, out
    assert_no_namespaces_left()
    job.end()


@needs_root
@pytest.mark.parametrize("options", [["--net-rate", "200mbit"], ["--sim-hosts", "2", "--net-rate", "200mbit"]],
                         ids=["loopback", "between simulated hosts"])
def test_net_rate_limits_the_link(tmp_path, options):
    # An all-gather of 8 MiB on 2 ranks puts 8 MiB through the link: at 200 Mbit/s at least
    # 0.3 s; through shared memory a few ms. The namespaces are gone afterwards.
    code, out = launch_script(tmp_path, """
        import os, time
        import numpy as np
        import meshflow as mf
        p = mf.placement("cpu", ranks=[0, 1])
        x = mf.tensor(np.ones((2, 1 << 20), np.float32), placement=p, sbp=mf.sbp.split(0))
        x.to_global(sbp=mf.sbp.broadcast).numpy()  # warm up the connections
        start = time.perf_counter()
        x.to_global(sbp=mf.sbp.broadcast).numpy()
        if mf.env.get_rank() == 0:
            print(f"seconds {time.perf_counter() - start:.3f} rate {os.environ['MESHFLOW_NET_RATE']}")
    """, timeout=120, options=options)
    assert code == 0, out
    assert float(out.split("seconds ")[1].split()[0]) >= 0.15, out
    assert "rate 200mbit" in out, out
    assert_no_namespaces_left()


@needs_root
def test_gpt_2x2x1_on_two_simulated_hosts_equals_one_host(tmp_path):
    # Data parallel across the hosts, tensor parallel inside each (ranks 0, 1 on host 0).
    train = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                         "examples", "gpt", "train.py")
    losses = {}
    for name, options in (("one host", ["--nproc", "4"]), ("two hosts", ["--sim-hosts", "2", "--nproc", "4"])):
        summary = tmp_path / f"{name.replace(' ', '-')}.json"
        code, out = finish(start([PYTHON, "-m", "meshflow.launch", *options, train, "--layout", "2x2x1_8_64x2",
                                  "--steps", "4", "--block", "32", "--sample", "0", "--json", str(summary)],
                                 cwd=tmp_path, OMP_NUM_THREADS="1"), timeout=180)
        assert code == 0, out
        losses[name] = json.loads(summary.read_text())["losses"]
    # Bitwise: OpenMPI picks a collective's algorithm by its size and group, not its transport.
    assert losses["one host"] == losses["two hosts"], losses
