"""The process's place in the job. These start the communication library on first call."""
from . import _C


def get_rank():
    return _C.world_rank()


def get_world_size():
    return _C.world_size()


def get_local_rank():
    """This rank's index among the ranks on its host (0 .. get_local_world_size() - 1)."""
    return _C.local_rank()


def get_local_world_size():
    """How many ranks run on this rank's host."""
    return _C.local_size()


def backend():
    """The communication backend in use: "mpi", or "mpi+nccl" once a group has moved GPU
    tensors with NCCL (groups whose ranks each have a GPU of their own; docs/gpu.md)."""
    return _C.backend_name()
