"""torch.accelerator: the process's accelerator, as torch 2.6's device-agnostic spelling
(`torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else
"cpu"`, the tutorials' device line). meshflow's one accelerator kind is CUDA (cuda/): these
answer from it, and a process that sees no GPU has none, as torch's CPU build."""
from . import cuda
from ._device import device as _device

__all__ = ["is_available", "current_accelerator", "device_count", "current_device_index", "set_device_index",
           "synchronize"]


def is_available():
    return cuda.is_available()


def device_count():
    return cuda.device_count()


def current_accelerator(check_available=False):
    """torch.device('cuda') where a GPU is seen; None otherwise (check_available or not: the
    build's kind is only reported when usable, so the tutorials' line takes the CPU)."""
    return _device("cuda") if is_available() else None


def current_device_index():
    """The accelerator device this process uses (meshflow places a rank on one GPU: 0), or -1
    without one, as torch's."""
    return 0 if is_available() else -1


def set_device_index(device):
    index = device.index if hasattr(device, "index") else int(device)
    if not is_available() or not 0 <= (index or 0) < device_count():
        raise RuntimeError(f"accelerator device {device} is not available; expected an index below {device_count()}")


def synchronize(device=None):
    cuda.synchronize(device)
