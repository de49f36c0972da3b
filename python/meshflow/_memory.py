"""Memory figures and limits per device, as torch.cuda's (docs/porting.md says what differs).

A device's caching allocator holds blocks in use (by tensors and by queued work) and freed
blocks it keeps for reuse (cached). set_memory_limit caps the two together, as a GPU's size
caps them: an allocation beyond the limit first returns the cached blocks to the system and
tries again, then raises OutOfMemoryError naming what was asked for, in use, cached and the
limit. MESHFLOW_MEMORY_LIMIT (bytes, or with K, M, G or T: powers of 1024) sets it for every
device of the process at start.

`device`: an mf.device or its name ("cpu", "testdev:1", "cuda"); without an index, the
device placements on that type use on this rank.
"""
import numbers

from . import _C
from ._device import device as _device_of


def _at(device):
    d = _device_of("cpu" if device is None else device)
    return d.type, -1 if d.index is None else d.index


def memory_stats(device=None):
    """Bytes held by live tensors and queued work (in_use_bytes), freed bytes the caching
    allocator keeps for reuse (cached_bytes), the peak in use (peak_bytes) since start or
    reset_peak_memory_stats(), and the limit (limit_bytes, None for none) of one device;
    without one, {"cpu": the host's}."""
    if device is None:
        return {"cpu": _C.memory_stats("cpu", 0)}
    return _C.memory_stats(*_at(device))


def reset_peak_memory_stats(device="cpu"):
    """Starts the device's peak (max_memory_allocated) again from what is in use now."""
    _C.reset_peak_memory_stats(*_at(device))


def memory_allocated(device=None):
    """Bytes in use on the device (the CPU without one), by tensors and queued work."""
    return _C.memory_stats(*_at(device))["in_use_bytes"]


def max_memory_allocated(device=None):
    """The most bytes in use at once since start or reset_peak_memory_stats()."""
    return _C.memory_stats(*_at(device))["peak_bytes"]


def memory_reserved(device=None):
    """Bytes the device's allocator holds: in use plus cached (what set_memory_limit caps)."""
    s = _C.memory_stats(*_at(device))
    return s["in_use_bytes"] + s["cached_bytes"]


def empty_cache(device=None):
    """Returns the device's cached blocks to the system (blocks in use stay)."""
    _C.release_cached_memory(*_at(device))


def set_memory_limit(limit, device=None):
    """Caps the bytes the device's allocator holds (in use plus cached) at `limit` (an int, or
    a string such as "512M" or "2G"; None removes the limit); this rank only (call it on every
    rank for a per-rank limit). Beyond it an allocation frees the cache and retries, then
    raises OutOfMemoryError: at the op's call where its outputs are allocated when issued (a
    local op on a device the host cannot touch), else at the next synchronizing call; in a
    job of several ranks, a global op's error is raised by every rank together at the next
    read of a global value (loss.item(), numpy(), print), where it can be caught."""
    if isinstance(limit, str):
        limit = _C.parse_memory_size(limit, "set_memory_limit's limit")
    elif limit is not None and (not isinstance(limit, numbers.Integral) or isinstance(limit, bool) or limit < 0):
        raise ValueError(f"set_memory_limit: expected a number of bytes >= 0, a string such as '2G', or None; "
                         f"got {limit!r}")
    _C.set_memory_limit(*_at(device), None if limit is None else int(limit))


__all__ = ["memory_stats", "reset_peak_memory_stats", "memory_allocated", "max_memory_allocated", "memory_reserved",
           "empty_cache", "set_memory_limit"]
