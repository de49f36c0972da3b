"""Helpers for tests that start jobs of their own: a child Python process, or a job of
several ranks through the launcher, each bounded by a timeout that kills its whole process
group (so a hang fails the test instead of the suite)."""
import os
import signal
import subprocess
import textwrap

import pytest

import meshflow as mf

PYTHON = "/usr/bin/python3"
PYTHONPATH = os.path.dirname(os.path.dirname(os.path.abspath(mf.__file__)))  # the dir holding meshflow/


def clean_env(**extra):
    """The environment for a child process: ours, minus the MPI singleton's variables (this
    process may have started MPI), plus meshflow on PYTHONPATH, mpirun allowed as root and
    `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMIX_", "ORTE_", "OPAL_"))}
    env.update(PYTHONPATH=PYTHONPATH, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", **extra)
    return {k: v for k, v in env.items() if v is not None}  # extra's None removes a variable


def start(cmd, cwd=None, **env):
    """The child running cmd in a session of its own, its stdout and stderr merged."""
    return subprocess.Popen(cmd, env=clean_env(**env), cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)


def finish(proc, timeout):
    """(exit code, output) of a child from start(); kills its process group if it overruns."""
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        pytest.fail(f"{proc.args} did not finish within {timeout} s; output:\n{out}")
    return proc.returncode, out


def run(cmd, timeout, cwd=None, **env):
    """(exit code, stdout + stderr) of cmd."""
    return finish(start(cmd, cwd, **env), timeout)


def write_script(tmp_path, body, name="job.py"):
    script = tmp_path / name
    script.write_text(textwrap.dedent(body))
    return script


def launch_script(tmp_path, body, nproc=2, timeout=20, options=(), **env):
    """(exit code, output) of `body` run on `nproc` ranks by the launcher, with `options`
    before the script and the argument "an-arg" after it."""
    script = write_script(tmp_path, body)
    return run([PYTHON, "-m", "meshflow.launch", "--nproc", str(nproc), *options, str(script), "an-arg"],
               timeout=timeout, cwd=tmp_path, **env)
