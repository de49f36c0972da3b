"""Whether this process sees a GPU meshflow can use: the GPU-only tests (each op's CUDA
kernel against the CPU's) are marked needs_gpu and skip without one."""
import pytest

import meshflow as mf


def gpu_visible():
    """A CUDA build with a GPU that takes a tensor."""
    if "cuda" not in mf.device_types():
        return False
    try:
        mf.zeros(1, device="cuda")
        return True
    except ValueError:
        return False


needs_gpu = pytest.mark.skipif(not gpu_visible(),
                               reason="no GPU visible (or meshflow built without CUDA): scripts/test-gpu runs it")
