"""meshflow.accelerator: torch.accelerator's queries (PyTorch 2.6+), which the examples'
programs ask before choosing a device: the accelerator is CUDA where the build has the CUDA
device (as torch's, whether or not a GPU is visible: is_available says that), and there is
none otherwise (the CPU is not an accelerator)."""
from . import _C, cuda
from ._device import device as _device

__all__ = ["is_available", "current_accelerator", "device_count", "current_device_index", "set_device_index",
           "synchronize"]

_index = 0  # the device index current_device_index reports: one process drives one GPU at a time


def is_available():
    return cuda.is_available()


def current_accelerator(check_available=False):
    """The build's accelerator as a device ("cuda"), or None where it has none (or, with
    check_available, where no GPU is visible)."""
    built = "cuda" in _C.device_types()
    return _device("cuda") if built and (not check_available or cuda.is_available()) else None


def device_count():
    return cuda.device_count()


def current_device_index():
    return _index


def set_device_index(index):
    """Makes `index` the current accelerator's index; an index no visible GPU has raises."""
    global _index
    index = int(getattr(index, "index", index) or 0)
    if not 0 <= index < max(cuda.device_count(), 1):
        raise ValueError(f"set_device_index: device index {index} out of range; expected one of the "
                         f"{cuda.device_count()} visible GPU(s)")
    _index = index


def synchronize(device=None):
    cuda.synchronize(device)
