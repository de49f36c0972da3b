"""torch.distributed.checkpoint (DCP) over meshflow's checkpoints (meshflow/_checkpoint.py).

save(state_dict, checkpoint_id=dir) is mf.save of the state into the directory: each distinct
shard of a global tensor (a fully_shard parameter, its optimizer state) is written once by the
rank holding it, a local tensor (a DDP model's) once by rank 0. load(state_dict,
checkpoint_id=dir) reads the checkpoint with the given state as mf.load's template, so each
tensor arrives in the layout of the tensor it replaces (resharded onto any world size or SBP,
or whole into a local tensor), and copies it into that tensor in place, as torch's does; a
plain value in the state is replaced by the saved one. Keys the checkpoint lacks and shape or
dtype mismatches raise a RuntimeError on every rank. Values that are Stateful (they have
state_dict and load_state_dict, torch's AppState) are saved as their state_dict() and loaded
back through load_state_dict. Collective over the world, like mf.save / mf.load.

The files are meshflow's checkpoint directory, not torch's .distcp files.
"""
import os

from ... import _checkpoint
from ..._tensor import Tensor, no_grad


class FileSystemWriter:
    """Where save_state_dict writes: a directory (torch's options are accepted, the format is meshflow's)."""

    def __init__(self, path, single_file_per_rank=True, sync_files=True, thread_count=1,
                 per_thread_copy_ahead=10_000_000, cache_staged_state_dict=False, overwrite=True):
        self.path = os.fspath(path)


class FileSystemReader:
    """Where load_state_dict reads: a directory that save or save_state_dict wrote."""

    def __init__(self, path):
        self.path = os.fspath(path)


def _directory(call, checkpoint_id, storage):
    if storage is not None:
        return storage.path
    if checkpoint_id is None:
        raise ValueError(f"{call}: expected checkpoint_id= (a directory) or a storage_writer / storage_reader")
    return os.fspath(checkpoint_id)


def _is_stateful(value):
    return callable(getattr(value, "state_dict", None)) and callable(getattr(value, "load_state_dict", None))


def _expanded(state_dict):
    return {k: v.state_dict() if _is_stateful(v) else v for k, v in state_dict.items()}


def save(state_dict, *, checkpoint_id=None, storage_writer=None, planner=None, process_group=None, no_dist=False):
    """torch's dcp.save: `state_dict` into the directory `checkpoint_id` (or storage_writer's)."""
    _checkpoint.save_directory(_expanded(state_dict), _directory("save", checkpoint_id, storage_writer))


def _fill(target, loaded, name):
    """Copies `loaded` into the tensors of `target` in place and replaces its plain values."""
    items = target.items() if isinstance(target, dict) else enumerate(target)
    for key, value in list(items):
        where = f"{name}.{key}" if name else str(key)
        present = key in loaded if isinstance(loaded, dict) else \
            isinstance(loaded, (list, tuple)) and key < len(loaded)
        if not present:
            raise RuntimeError(f"Missing key in checkpoint state_dict: {where}.")
        if isinstance(value, Tensor):
            with no_grad():
                value.copy_(loaded[key])
        elif isinstance(value, (dict, list)):
            _fill(value, loaded[key], where)
        else:
            target[key] = loaded[key]


def load(state_dict, *, checkpoint_id=None, storage_reader=None, planner=None, process_group=None, no_dist=False):
    """torch's dcp.load: the checkpoint's values into `state_dict`'s tensors, in place."""
    expanded = _expanded(state_dict)
    try:
        loaded = _checkpoint.load(_directory("load", checkpoint_id, storage_reader), template=expanded)
    except _checkpoint._NoCheckpoint:
        raise
    except ValueError as e:  # a tensor missing or mismatched: torch raises RuntimeError (every rank here)
        raise RuntimeError(str(e)) from None
    _fill(expanded, loaded, "")
    for key, value in state_dict.items():
        if _is_stateful(value):
            value.load_state_dict(expanded[key])
        else:
            state_dict[key] = expanded[key]


def save_state_dict(state_dict, storage_writer, process_group=None, coordinator_rank=0, no_dist=False, planner=None):
    """torch's older spelling of save."""
    save(state_dict, storage_writer=storage_writer)


def load_state_dict(state_dict, storage_reader, process_group=None, coordinator_rank=0, no_dist=False, planner=None):
    """torch's older spelling of load."""
    load(state_dict, storage_reader=storage_reader)


def __getattr__(name):
    """torch.distributed.checkpoint.state_dict, imported on first use (it needs meshflow.nn)."""
    if name == "state_dict":
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FileSystemReader", "FileSystemWriter", "load", "load_state_dict", "save", "save_state_dict"]
