"""The process's place in the job. These start the communication library on first call."""
from . import _C


def get_rank():
    return _C.world_rank()


def get_world_size():
    return _C.world_size()


def backend():
    """The communication backend in use ("mpi")."""
    return _C.backend_name()
