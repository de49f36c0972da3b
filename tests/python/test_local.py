"""Single-process tests (a world of 1): local tensors, dtypes, SBP values, placements, global
tensors on [0], and the launcher (meshflow.launch), including two real 2-rank jobs.
"""
import os
import signal
import json
import subprocess
import time
import sys
import textwrap

import numpy as np
import pytest

import meshflow as mf
from meshflow import launch

S, B, P, PMAX, PMIN = mf.sbp.split, mf.sbp.broadcast, mf.sbp.partial_sum, mf.sbp.partial_max, mf.sbp.partial_min
PYTHON = "/usr/bin/python3"
PYTHONPATH = os.path.dirname(os.path.dirname(os.path.abspath(mf.__file__)))  # the dir holding meshflow/
DTYPES = [(mf.float32, np.float32), (mf.float64, np.float64), (mf.int32, np.int32), (mf.int64, np.int64)]


def clean_env(**extra):
    """The environment for a child process: ours, minus the MPI singleton's variables (this
    process may have started MPI), plus meshflow on PYTHONPATH and mpirun allowed as root."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMIX_", "ORTE_", "OPAL_"))}
    env.update(PYTHONPATH=PYTHONPATH, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", **extra)
    return env


def run(cmd, timeout, cwd=None):
    """(exit code, stdout + stderr) of cmd; kills its whole process group if it overruns."""
    proc = subprocess.Popen(cmd, env=clean_env(), cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        pytest.fail(f"{cmd} did not finish within {timeout} s; output:\n{out}")
    return proc.returncode, out


# ---------------------------------------------------------------------------------------------
# Importing starts nothing.

def test_import_does_not_start_mpi():
    code, out = run([PYTHON, "-c", "import meshflow; print(meshflow._C.initialized())"], timeout=60)
    assert code == 0, out
    assert out.strip() == "False"


def test_first_use_starts_mpi_in_process():
    code, out = run([PYTHON, "-c", "import meshflow as mf; print(mf.env.get_rank(), mf.env.get_world_size(), "
                     "mf._C.initialized())"], timeout=60)
    assert code == 0, out
    assert out.split()[-3:] == ["0", "1", "True"]


# ---------------------------------------------------------------------------------------------
# Local tensors.

@pytest.mark.parametrize("mf_dtype, np_dtype", DTYPES, ids=lambda d: getattr(d, "name", None))
def test_local_round_trip(mf_dtype, np_dtype):
    array = (np.arange(12) - 5).astype(np_dtype).reshape(3, 4)
    t = mf.tensor(array)
    assert not t.is_global and t.is_local
    assert t.dtype == mf_dtype and t.shape == (3, 4)
    out = t.numpy()
    assert out.dtype == np_dtype
    np.testing.assert_array_equal(out, array)
    np.testing.assert_array_equal(mf.tensor(array.tolist(), dtype=mf_dtype).numpy(), array)
    np.testing.assert_array_equal(mf.from_numpy(array).numpy(), array)


def test_to_local_numpy_shares_memory():
    t = mf.tensor(np.zeros((2, 3), np.float32))
    view = t.to_local().numpy()
    assert np.shares_memory(view, t.numpy())
    view[1, 2] = 7
    assert t.numpy()[1, 2] == 7


def test_from_numpy_shares_memory():
    array = np.zeros((2, 3), np.int64)
    t = mf.from_numpy(array)
    assert np.shares_memory(t.numpy(), array)
    array[0, 1] = 5
    assert t.numpy()[0, 1] == 5


def test_from_numpy_rejects_what_it_cannot_share():
    with pytest.raises(ValueError, match="C-contiguous"):
        mf.from_numpy(np.zeros((3, 4), np.float32)[:, ::2])
    with pytest.raises(TypeError, match="numpy.ndarray"):
        mf.from_numpy([1.0, 2.0])


def test_tensor_copies():
    array = np.zeros(4, np.float64)
    t = mf.tensor(array)
    assert not np.shares_memory(t.numpy(), array)
    array[0] = 1
    assert t.numpy()[0] == 0


@pytest.mark.parametrize("bad", [np.float16, np.bool_, np.complex64, np.uint8])
def test_unsupported_dtype(bad):
    name = np.dtype(bad).name
    pattern = f"unsupported dtype '{name}'.*float32, float64, int32, int64"
    with pytest.raises(ValueError, match=pattern):
        mf.tensor(np.zeros(3, bad))
    with pytest.raises(ValueError, match=pattern):
        mf.from_numpy(np.zeros(3, bad))
    with pytest.raises(ValueError, match=pattern):
        mf.tensor([1, 2], dtype=bad)


def test_unsupported_python_values():
    with pytest.raises(ValueError, match="unsupported dtype 'bool'"):
        mf.tensor([True, False])
    with pytest.raises(ValueError, match="unsupported dtype 'complex"):
        mf.tensor([1j])


@pytest.mark.parametrize("data, expected", [
    ([1.5, 2.0], mf.float32),
    ([[1, 2], [3, 4]], mf.int64),
    ([1, 2.5], mf.float32),
    (3.0, mf.float32),
    (7, mf.int64),
    (np.zeros(2, np.float64), mf.float64),  # NumPy arrays keep their dtype
    (np.zeros(2, np.int32), mf.int32),
], ids=["floats", "ints", "mixed", "float scalar", "int scalar", "float64 array", "int32 array"])
def test_dtype_defaults(data, expected):
    assert mf.tensor(data).dtype == expected


@pytest.mark.parametrize("dtype", [mf.float64, np.float64, "float64"], ids=["meshflow", "numpy", "name"])
def test_dtype_argument(dtype):
    t = mf.tensor([1, 2, 3], dtype=dtype)
    assert t.dtype == mf.float64 and t.numpy().dtype == np.float64


def test_dtype_values():
    assert repr(mf.float32) == "meshflow.float32"
    assert mf.float32 != mf.float64
    assert len({mf.float32, mf.float64, mf.int32, mf.int64, mf.float32}) == 4


# ---------------------------------------------------------------------------------------------
# SBP values.

def test_sbp_equality():
    assert S(0) == S(0) == S(dim=0) and S(0) != S(1)
    assert B == mf.sbp.broadcast and P == mf.sbp.partial_sum
    distinct = [S(0), S(1), B, P, PMAX, PMIN]
    for i, a in enumerate(distinct):
        for j, b in enumerate(distinct):
            assert (a == b) == (i == j), (a, b)
    assert S(0) != 0 and B != "B"


def test_sbp_hashing():
    assert hash(S(2)) == hash(S(2))
    assert len({S(0), S(0), S(1), B, B, P, PMAX, PMIN, PMIN}) == 6
    names = {S(0): "split 0", B: "broadcast", P: "sum"}
    assert names[S(0)] == "split 0" and names[mf.sbp.broadcast] == "broadcast" and names[mf.sbp.partial_sum] == "sum"
    assert {(S(0), B): 1}[(S(0), B)] == 1


def test_sbp_repr():
    assert [repr(s) for s in (S(0), S(dim=3), B, P, PMAX, PMIN)] == ["S(0)", "S(3)", "B", "P", "P(max)", "P(min)"]


def test_sbp_properties():
    assert S(1).is_split and S(1).dim == 1 and not S(1).is_partial
    assert B.is_broadcast and B.dim is None
    assert P.is_partial and PMAX.is_partial and PMIN.is_partial and not B.is_partial


def test_sbp_split_errors():
    with pytest.raises(ValueError, match="negative"):
        S(-1)
    with pytest.raises(TypeError, match="int"):
        S(0.5)
    with pytest.raises(TypeError, match="int"):
        S(True)


# ---------------------------------------------------------------------------------------------
# Placements (the world has one rank here).

def test_placement_properties():
    p = mf.placement("cpu", ranks=[0])
    assert (p.type, p.ranks, p.hierarchy) == ("cpu", [0], [1])
    q = mf.placement(type="cpu", ranks=[[0]])
    assert (q.type, q.ranks, q.hierarchy) == ("cpu", [[0]], [1, 1])
    assert mf.placement(ranks=[0]).type == "cpu"


def test_placement_equality_and_hash():
    p = mf.placement("cpu", ranks=[0])
    assert p == mf.placement(type="cpu", ranks=[0])
    assert hash(p) == hash(mf.placement("cpu", ranks=[0]))
    assert p != mf.placement("cpu", ranks=[[0]])  # same ranks, other hierarchy
    assert p != "cpu" and p != [0]
    assert len({p, mf.placement("cpu", ranks=[0]), mf.placement("cpu", ranks=[[0]])}) == 2
    assert {p: "one"}[mf.placement("cpu", ranks=[0])] == "one"


def test_placement_repr():
    assert repr(mf.placement("cpu", ranks=[0])) == 'placement(type="cpu", ranks=[0])'
    assert "ranks=[[0]]" in repr(mf.placement("cpu", ranks=[[0]]))


@pytest.mark.parametrize("kwargs, message", [
    (dict(ranks=[[0], [0, 1]]), "ragged"),
    (dict(ranks=[0, 0]), "rank 0 is repeated"),
    (dict(ranks=[0, 1]), "rank 1 is outside the world"),
    (dict(ranks=[[0, 1], [2, 3]]), "outside the world"),
    (dict(type="cuda", ranks=[0]), "'cuda' is not supported"),
    (dict(type="tpu", ranks=[0]), "'tpu' is not supported"),
    (dict(ranks=[]), "non-empty"),
    (dict(), "ranks are required"),
], ids=["ragged", "repeated", "outside world", "outside world 2-d", "cuda", "tpu", "empty", "no ranks"])
def test_placement_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        mf.placement(**kwargs)


# ---------------------------------------------------------------------------------------------
# Global tensors on placement [0]: every SBP holds the whole value.

@pytest.mark.parametrize("sbp", [S(0), S(1), B, P, PMAX, PMIN], ids=repr)
@pytest.mark.parametrize("mf_dtype, np_dtype", DTYPES, ids=lambda d: getattr(d, "name", None))
def test_global_on_one_rank(sbp, mf_dtype, np_dtype):
    p = mf.placement("cpu", ranks=[0])
    value = (np.arange(12) - 6).astype(np_dtype).reshape(3, 4)
    for g in (mf.tensor(value, placement=p, sbp=sbp), mf.tensor(value).to_global(placement=p, sbp=(sbp,))):
        assert g.is_global and g.shape == (3, 4) and g.dtype == mf_dtype
        assert g.sbp == (sbp,) and g.placement == p
        np.testing.assert_array_equal(g.numpy(), value)
        np.testing.assert_array_equal(g.to_local().numpy(), value)
        for dst in (S(0), S(1), B, P, PMAX, PMIN):
            h = g.to_global(sbp=dst)
            assert h.sbp == (dst,)
            np.testing.assert_array_equal(h.numpy(), value)


def test_global_property_errors_on_local_tensors():
    t = mf.tensor([1.0])
    with pytest.raises(ValueError, match="only defined for global tensors"):
        t.sbp
    with pytest.raises(ValueError, match="only defined for global tensors"):
        t.placement


def test_global_errors():
    p = mf.placement("cpu", ranks=[0])
    value = np.zeros((2, 3), np.float32)
    with pytest.raises(ValueError, match="has 2 entries.*one sbp per axis"):
        mf.tensor(value, placement=p, sbp=(S(0), B))
    with pytest.raises(ValueError, match="has 2 entries.*one sbp per axis"):
        mf.tensor(value).to_global(placement=p, sbp=(B, B))
    with pytest.raises(ValueError, match=r"S\(2\) splits dim 2 but the tensor has 2 dims"):
        mf.tensor(value, placement=p, sbp=S(2))
    with pytest.raises(ValueError, match=r"S\(2\).*2 dims"):
        mf.tensor(value).to_global(placement=p, sbp=S(2))
    with pytest.raises(ValueError, match=r"S\(5\).*2 dims"):
        mf.tensor(value, placement=p, sbp=B).to_global(sbp=S(5))
    with pytest.raises(ValueError, match="needs both placement and sbp"):
        mf.tensor(value).to_global(placement=p)
    with pytest.raises(ValueError, match="needs both placement and sbp"):
        mf.tensor(value).to_global(sbp=B)
    with pytest.raises(ValueError, match="needs both placement and sbp"):
        mf.tensor(value, sbp=B)
    with pytest.raises(TypeError, match="placement"):
        mf.tensor(value).to_global(placement=[0], sbp=B)
    with pytest.raises(TypeError, match="sbp entries"):
        mf.tensor(value).to_global(placement=p, sbp="B")


# ---------------------------------------------------------------------------------------------
# The launcher: parsing and the mpirun command (pure functions).

@pytest.mark.parametrize("argv, expected", [
    (["--nproc", "2", "train.py"], (2, [], ["train.py"])),
    (["--nproc=3", "train.py"], (3, [], ["train.py"])),
    (["-n", "4", "train.py"], (4, [], ["train.py"])),
    (["-np", "4", "train.py"], (4, [], ["train.py"])),
    (["--nproc", "2", "--hostfile", "h", "train.py"], (2, ["--hostfile", "h"], ["train.py"])),
    (["--hostfile", "h", "--nproc", "2", "--host", "a,b", "train.py"],
     (2, ["--hostfile", "h", "--host", "a,b"], ["train.py"])),
    # Everything after the script belongs to it, even options the launcher knows.
    (["--nproc", "2", "train.py", "--nproc", "5", "-x", "--lr=0.1", "data.py"],
     (2, [], ["train.py", "--nproc", "5", "-x", "--lr=0.1", "data.py"])),
    (["--nproc", "2", "--", "my_program", "-v"], (2, [], ["my_program", "-v"])),
], ids=["--nproc", "--nproc=", "-n", "-np", "hostfile", "options around nproc", "script args", "--"])
def test_launch_parse(argv, expected):
    assert launch.parse(argv) == expected


def test_launch_parse_existing_hostfile(tmp_path):
    hostfile = tmp_path / "hosts"
    hostfile.write_text("localhost slots=2\n")
    assert launch.parse(["--nproc", "2", "--hostfile", str(hostfile), "train.py"]) == \
        (2, ["--hostfile", str(hostfile)], ["train.py"])


@pytest.mark.parametrize("argv, message", [
    (["--nproc", "2"], "no script given"),
    (["--nproc", "2", "--"], "no script given"),
    ([], "no script given"),
    (["train.py"], "--nproc must be a positive integer, got None"),
    (["--nproc", "0", "train.py"], "got '0'"),
    (["--nproc", "-1", "train.py"], "got '-1'"),
    (["--nproc", "two", "train.py"], "got 'two'"),
    (["--nproc=", "train.py"], "got ''"),
    (["--nproc"], "--nproc needs a value"),
], ids=["no script", "no script after --", "nothing", "no nproc", "zero", "negative", "word", "empty", "no value"])
def test_launch_parse_errors(argv, message):
    with pytest.raises(SystemExit) as error:
        launch.parse(argv)
    assert message in str(error.value)
    assert "usage: python3 -m meshflow.launch" in str(error.value)


def test_launch_command():
    env = {"PYTHONPATH": "/somewhere", "MESHFLOW_CHECK_CONSISTENCY": "1"}
    cmd = launch.command(2, ["--hostfile", "h"], ["train.py", "--lr", "0.1"], env)
    assert os.path.basename(cmd[0]) == "mpirun"
    assert cmd[cmd.index("-n") + 1] == "2"
    assert cmd[-4:] == ["-u", "train.py", "--lr", "0.1"] and cmd[-5] == sys.executable
    assert cmd[cmd.index("--hostfile") + 1] == "h" and cmd.index("--hostfile") < cmd.index(sys.executable)
    exported = {cmd[i + 1] for i, arg in enumerate(cmd) if arg == "-x"}
    assert {"PYTHONPATH", "MESHFLOW_CHECK_CONSISTENCY", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"} <= exported
    assert env["OMP_NUM_THREADS"] == env["OPENBLAS_NUM_THREADS"] and int(env["OMP_NUM_THREADS"]) >= 1


@pytest.mark.parametrize("argv, rate, rest", [
    (["--nproc", "2", "--net-rate", "4gbit", "t.py", "--net-rate", "x"], "4gbit",
     ["--nproc", "2", "t.py", "--net-rate", "x"]),  # the script's own options are its own
    (["--net-rate=500mbit", "-n", "2", "t.py"], "500mbit", ["-n", "2", "t.py"]),
    (["--nproc", "2", "t.py"], None, ["--nproc", "2", "t.py"]),
])
def test_launch_split_net_rate(argv, rate, rest):
    assert launch.split_net_rate(argv) == (rate, rest)


def test_launch_net_rate_errors():
    with pytest.raises(SystemExit, match="is not a rate tc understands"):
        launch.split_net_rate(["--net-rate", "fast", "t.py"])
    with pytest.raises(SystemExit, match="needs a value"):
        launch.split_net_rate(["--net-rate"])


@pytest.mark.skipif(os.geteuid() != 0, reason="--net-rate needs root")
def test_launch_net_rate_limits_the_link(tmp_path):
    # An all-gather of 8 MiB on 2 ranks puts 8 MiB through the one loopback: at 200 Mbit/s at
    # least 0.3 s; through shared memory a few ms. The namespace is gone afterwards.
    script = tmp_path / "job.py"
    script.write_text(textwrap.dedent("""
        import os, time
        import numpy as np
        import meshflow as mf
        p = mf.placement("cpu", ranks=[0, 1])
        x = mf.tensor(np.ones((2, 1 << 20), np.float32), placement=p, sbp=mf.sbp.split(0))
        x.to_global(sbp=mf.sbp.broadcast).numpy()  # warm up the connections
        start = time.perf_counter()
        y = x.to_global(sbp=mf.sbp.broadcast)
        mf.synchronize()
        if mf.env.get_rank() == 0:
            print(f"seconds {time.perf_counter() - start:.3f} rate {os.environ['MESHFLOW_NET_RATE']}")
    """))
    code, out = run([PYTHON, "-m", "meshflow.launch", "--nproc", "2", "--net-rate", "200mbit", str(script)],
                    timeout=120, cwd=tmp_path)
    assert code == 0, out
    seconds = float(out.split("seconds ")[1].split()[0])
    assert seconds >= 0.15, out
    assert "rate 200mbit" in out, out
    namespaces = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert "meshflow-" not in namespaces, namespaces


def test_launch_command_keeps_thread_settings():
    env = {"OMP_NUM_THREADS": "3"}
    launch.command(2, [], ["train.py"], env)
    assert env["OMP_NUM_THREADS"] == "3" and env["OPENBLAS_NUM_THREADS"] == "3"


# ---------------------------------------------------------------------------------------------
# The launcher end to end: two real ranks.

def launch_script(tmp_path, body, nproc=2, timeout=20):
    script = tmp_path / "job.py"
    script.write_text(textwrap.dedent(body))
    return run([PYTHON, "-m", "meshflow.launch", "--nproc", str(nproc), str(script), "an-arg"], timeout=timeout,
               cwd=tmp_path)


def test_launch_runs_every_rank(tmp_path):
    code, out = launch_script(tmp_path, """
        import sys
        import numpy as np
        import meshflow as mf
        rank, world = mf.env.get_rank(), mf.env.get_world_size()
        g = mf.tensor(np.full(2, rank + 1.0)).to_global(placement=mf.placement("cpu", ranks=[0, 1]),
                                                        sbp=mf.sbp.partial_sum)
        print(f"rank {rank} of {world} args {sys.argv[1:]} sum {g.numpy().tolist()}")
    """)
    assert code == 0, out
    for rank in (0, 1):
        assert f"rank {rank} of 2 args ['an-arg'] sum [3.0, 3.0]" in out, out


def test_trace_has_every_rank_s_instructions_on_their_streams(tmp_path):
    # MESHFLOW_TRACE=prefix writes a Chrome trace per rank at exit: kernels on the compute
    # stream, boxing on the comm stream, each span well-formed.
    script = tmp_path / "job.py"
    script.write_text(textwrap.dedent("""
        import meshflow as mf
        p = mf.placement("cpu", ranks=[0, 1])
        x = mf.ones(8, 8, placement=p, sbp=mf.sbp.split(0))
        print((mf.matmul(x, x.to_global(sbp=mf.sbp.broadcast)) * 2).sum().item())
    """))
    cmd = [PYTHON, "-m", "meshflow.launch", "--nproc", "2", str(script)]
    proc = subprocess.run(cmd, env=clean_env(MESHFLOW_TRACE=str(tmp_path / "trace")), cwd=tmp_path,
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for rank in (0, 1):
        events = json.loads((tmp_path / f"trace.rank{rank}.json").read_text())["traceEvents"]
        spans = {(e["tid"], e["name"]) for e in events}
        assert ("compute", "matmul") in spans and ("comm", "to_global") in spans, spans
        assert all(e["ph"] == "X" and e["dur"] >= 0 and e["pid"] == rank for e in events)


def test_launch_failure_on_one_rank_ends_the_job(tmp_path):
    code, out = launch_script(tmp_path, """
        import numpy as np
        import meshflow as mf
        rank = mf.env.get_rank()
        if rank == 1:
            raise RuntimeError("boom on rank 1")
        # Rank 0 waits in a collective that rank 1 never joins: only ending the job frees it.
        mf.tensor(np.ones(2)).to_global(placement=mf.placement("cpu", ranks=[0, 1]), sbp=mf.sbp.split(0)).numpy()
        print("rank 0 finished")
    """)
    assert code != 0, out
    assert "RuntimeError: boom on rank 1" in out, out
    assert "rank 0 finished" not in out, out


def test_stuck_rank_ends_the_job_after_the_collective_timeout(tmp_path):
    # Rank 1 stops answering (SIGSTOP, as a hung host would); rank 0's collective would
    # wait forever: the watchdog ends the job within MESHFLOW_COMM_TIMEOUT, naming the
    # collective, its group and the op that issued it.
    start = time.monotonic()
    code, out = launch_script(tmp_path, """
        import os, signal
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


def test_non_native_byte_order():
    big_endian = np.arange(3, dtype=">f4")
    np.testing.assert_array_equal(mf.tensor(big_endian).numpy(), [0, 1, 2])
    with pytest.raises(ValueError, match="non-native byte order"):
        mf.from_numpy(big_endian)


def test_numpy_of_a_global_tensor_is_a_copy():
    g = mf.tensor(np.arange(3.0), placement=mf.placement("cpu", ranks=[0]), sbp=mf.sbp.broadcast)
    g.numpy()[0] = 100
    assert g.numpy()[0] == 0
