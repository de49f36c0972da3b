"""torch.backends' switches, as ported scripts set them (`torch.backends.cudnn.benchmark =
True`, `torch.backends.cuda.matmul.allow_tf32 = True`): recorded and read back, changing
nothing. meshflow has no cuDNN autotuner to enable, and its float32 matmuls do not use TF32,
so every setting gives the results torch gives with TF32 off."""
import contextlib as _contextlib
import types as _types
import warnings as _warnings

from .. import cuda as _cuda


@_contextlib.contextmanager
def _sdp_kernel(enable_flash=True, enable_math=True, enable_mem_efficient=True, enable_cudnn=True):
    """torch.backends.cuda.sdp_kernel (deprecated there for torch.nn.attention.sdpa_kernel, with
    torch's FutureWarning): meshflow's attention has one kernel per device, whose results are
    torch's math backend's to rounding, so the block runs as without it."""
    _warnings.warn("`torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this context manager "
                   "will be removed. Please see `torch.nn.attention.sdpa_kernel()` for the new context "
                   "manager, with updated signature.", FutureWarning, stacklevel=3)
    yield


cudnn = _types.SimpleNamespace(enabled=True, benchmark=False, deterministic=False, allow_tf32=True,
                               is_available=lambda: False, version=lambda: None)
_matmul = _types.SimpleNamespace(allow_tf32=False, allow_fp16_reduced_precision_reduction=True,
                                 allow_bf16_reduced_precision_reduction=True)
cuda = _types.SimpleNamespace(matmul=_matmul,
                              is_built=lambda: _cuda.is_available(), flash_sdp_enabled=lambda: True,
                              enable_flash_sdp=lambda enabled: None, enable_mem_efficient_sdp=lambda enabled: None,
                              enable_math_sdp=lambda enabled: None, enable_cudnn_sdp=lambda enabled: None,
                              mem_efficient_sdp_enabled=lambda: True, math_sdp_enabled=lambda: True,
                              cudnn_sdp_enabled=lambda: False, sdp_kernel=_sdp_kernel)
mps = _types.SimpleNamespace(is_available=lambda: False, is_built=lambda: False)
mkldnn = _types.SimpleNamespace(enabled=True, is_available=lambda: True)
openmp = _types.SimpleNamespace(is_available=lambda: True)
opt_einsum = _types.SimpleNamespace(enabled=True, strategy="auto", is_available=lambda: False)

__all__ = ["cudnn", "cuda", "mps", "mkldnn", "openmp", "opt_einsum"]
