"""torch.multiprocessing.spawn's spelling, for the DDP tutorials' programs.

A meshflow job is one process per rank started by mpirun, so spawn(fn, args, nprocs) maps
onto it: inside a job of nprocs ranks (meshflow.launch, or mpirun) each rank calls
fn(rank, *args) itself; run as a plain `python3 script.py`, it starts that job, running the
script again on nprocs ranks through meshflow.launch, each of which reaches this call and
runs its part. So, as with torch's start method "spawn", the script's top level must be
safe to run again in every process (the `if __name__ == "__main__":` guard torch asks for).
"""
import os
import sys


def _job_size():
    size = os.environ.get("OMPI_COMM_WORLD_SIZE")
    return None if size is None else int(size)


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """Runs fn(rank, *args) on nprocs ranks (see the module's docstring); returns None."""
    nprocs = int(nprocs)
    if nprocs < 1:
        raise ValueError(f"spawn: nprocs must be at least 1, got {nprocs}")
    size = _job_size()
    if size is None and nprocs > 1:
        if not sys.argv or not sys.argv[0].endswith(".py"):
            raise RuntimeError(f"spawn(nprocs={nprocs}) outside a meshflow job needs a script to run again on "
                               f"each rank; launch it: python3 -m meshflow.launch --nproc {nprocs} script.py")
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(sys.executable, [sys.executable, "-m", "meshflow.launch", "--nproc", str(nprocs),
                                  os.path.abspath(sys.argv[0])] + sys.argv[1:])
    if size is not None and size != nprocs:
        raise ValueError(f"spawn(nprocs={nprocs}) inside a job of {size} ranks; expected nprocs == the job's ranks "
                         f"(launch with --nproc {nprocs})")
    from . import env
    fn(env.get_rank() if size is not None else 0, *args)
    return None


start_processes = spawn


def set_start_method(method, force=False):
    """Accepted for torch's programs: meshflow's processes are the job's ranks."""


def get_start_method(allow_none=False):
    return "spawn"
