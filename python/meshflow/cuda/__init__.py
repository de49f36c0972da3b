"""meshflow.cuda: torch.cuda's queries, answered by the device layer (a GPU is usable when the
build has the CUDA device and the driver shows one)."""
from .. import _C

__all__ = ["is_available", "is_bf16_supported", "device_count", "synchronize", "manual_seed", "manual_seed_all", "kernel_times", "amp",
           "OutOfMemoryError", "memory_stats", "memory_allocated", "max_memory_allocated", "memory_reserved",
           "reset_peak_memory_stats", "empty_cache", "set_memory_limit"]

OutOfMemoryError = _C.OutOfMemoryError  # mf.OutOfMemoryError: one class for every device


_count = None


def device_count():
    """How many GPUs this process sees (0 without the CUDA device or a GPU); the first call
    opens each of them, as a first use would."""
    global _count
    if _count is None:
        from .._ops_creation import zeros
        _count = 0
        while "cuda" in _C.device_types():
            try:
                zeros(1, device=f"cuda:{_count}")
            except ValueError:
                break
            _count += 1
    return _count


def is_available():
    return device_count() > 0


def is_bf16_supported(including_emulation=True):
    """bfloat16 runs on every GPU meshflow's CUDA device takes (its kernels compute halves in
    float32), as torch's answer on one that supports it; False without a GPU."""
    return is_available()


def synchronize(device=None):
    _C.synchronize()


def manual_seed(seed):
    """meshflow has one generator for every device: mf.manual_seed."""
    from .._ops_creation import manual_seed as seed_all
    seed_all(seed)


manual_seed_all = manual_seed


def kernel_times(device=0, reset=True):
    """Per op, [(name, calls, milliseconds)] of GPU time its kernels took since the last reset,
    most first, when the process runs with MESHFLOW_PROFILE=1 (each op's kernels between two
    CUDA timing events); empty otherwise. Waits for the timed work."""
    return _C.kernel_times("cuda", int(device), bool(reset))


_NO_GPU = object()  # a query that raises without a GPU, as torch's reset_peak_memory_stats


def _on_gpu(name, without_gpu=_NO_GPU):
    """mf.<name> of a GPU; in a process that sees none, torch's answer for CUDA never
    initialized (`without_gpu`: 0, {} or nothing), so scripts that call torch.cuda.empty_cache()
    or log memory_allocated() unconditionally run on the CPU."""
    from .. import _memory
    call = getattr(_memory, name)

    def on_gpu(device=None):
        if without_gpu is not _NO_GPU and not is_available():
            return without_gpu() if callable(without_gpu) else without_gpu
        return call("cuda" if device is None else device if not isinstance(device, int) else f"cuda:{device}")
    on_gpu.__name__ = name
    on_gpu.__doc__ = f"mf.{name} of a GPU (this rank's without one; an int is an index): torch.cuda.{name}."
    return on_gpu


memory_stats = _on_gpu("memory_stats", dict)
memory_allocated = _on_gpu("memory_allocated", 0)
max_memory_allocated = _on_gpu("max_memory_allocated", 0)
memory_reserved = _on_gpu("memory_reserved", 0)
reset_peak_memory_stats = _on_gpu("reset_peak_memory_stats")
empty_cache = _on_gpu("empty_cache", None)


def set_memory_limit(limit, device=None):
    """mf.set_memory_limit of a GPU (this rank's without one; an int is an index)."""
    from .._memory import set_memory_limit as set_limit
    set_limit(limit, "cuda" if device is None else device if not isinstance(device, int) else f"cuda:{device}")


from . import amp  # noqa: E402 (torch.cuda.amp's spellings)
