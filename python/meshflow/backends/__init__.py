"""torch.backends' switches, as ported scripts set them (`torch.backends.cudnn.benchmark =
True`, `torch.backends.cuda.matmul.allow_tf32 = True`): recorded and read back, changing
nothing. meshflow has no cuDNN autotuner to enable, and its float32 matmuls do not use TF32,
so every setting gives the results torch gives with TF32 off."""
import types as _types

from .. import cuda as _cuda

cudnn = _types.SimpleNamespace(enabled=True, benchmark=False, deterministic=False, allow_tf32=True,
                               is_available=lambda: False, version=lambda: None)
_matmul = _types.SimpleNamespace(allow_tf32=False, allow_fp16_reduced_precision_reduction=True,
                                 allow_bf16_reduced_precision_reduction=True)
cuda = _types.SimpleNamespace(matmul=_matmul,
                              is_built=lambda: _cuda.is_available(), flash_sdp_enabled=lambda: True,
                              enable_flash_sdp=lambda enabled: None, enable_mem_efficient_sdp=lambda enabled: None,
                              enable_math_sdp=lambda enabled: None)
mps = _types.SimpleNamespace(is_available=lambda: False, is_built=lambda: False)
mkldnn = _types.SimpleNamespace(enabled=True, is_available=lambda: True)
openmp = _types.SimpleNamespace(is_available=lambda: True)
opt_einsum = _types.SimpleNamespace(enabled=True, strategy="auto", is_available=lambda: False)

__all__ = ["cudnn", "cuda", "mps", "mkldnn", "openmp", "opt_einsum"]
