"""mf.autocast: automatic mixed precision, as torch.autocast.

    with mf.autocast("cpu", dtype=mf.bfloat16):
        loss = model(x, y)          # matmuls, linear layers and fused attention in bfloat16
    loss.backward()                 # gradients reach the float32 weights in float32

Inside, a matmul (and so a linear layer) with float32 inputs runs on them cast to bfloat16,
with oneDNN's bfloat16 kernels (AVX512-BF16 or AMX where the CPU has them) accumulating in
float32, and gives a float32 result. The fused attention ops (F.scaled_dot_product_attention
without a mask, F.packed_qkv_attention) do the same: bfloat16 q, k, v (tensor cores on a
GPU; float32 arithmetic on the CPU), float32 out and gradients. Everything else runs as called, so softmax, layer norm,
losses and reductions stay float32, and the weights and optimizer state stay float32
(master weights). Unlike torch, a matmul's result is float32 rather than bfloat16: the ops
after it need no bfloat16 kernels and nothing is rounded twice. Its backward products run in
bfloat16 too, and their float32 accumulators go straight to the float32 operands' gradients,
never rounded to bfloat16. The casts are ordinary ops:
autograd, every parallel layout and graph mode (traced inside the block) handle them.
The setting is per thread; blocks nest and restore what was set before. `device_type` is
any registered type (mf.device_types(): "cpu", "cuda", ...); unlike torch, the setting
applies to the ops of every device, which for a model on one device is the same.
"""
from . import _C
from . import _device
from . import _dtype


class autocast:
    def __init__(self, device_type="cpu", dtype=_dtype.bfloat16, enabled=True, cache_enabled=None):
        # cache_enabled (torch's cache of casted weights) is accepted and has no effect: the
        # casts are ordinary ops, issued where the matmuls are.
        if not isinstance(device_type, str) or device_type not in _device.device_types():
            raise ValueError(f"autocast: device_type {device_type!r} is not supported; expected one of "
                             + ", ".join(_device.device_types()))
        dtype = _dtype.to_dtype(dtype)
        if dtype != _dtype.bfloat16:
            raise ValueError(f"autocast: dtype {dtype!r} is not supported; expected meshflow.bfloat16 (float32's "
                             "range, so no GradScaler is needed; meshflow has no float16 arithmetic)")
        self._dtype = dtype.name if enabled else None
        self._previous = []

    def __enter__(self):
        self._previous.append(_C.set_autocast_dtype(self._dtype))
        return self

    def __exit__(self, *exc):
        _C.set_autocast_dtype(self._previous.pop())
        return False


def autocast_dtype():
    """The dtype autocast runs matmuls and attention in on this thread, or None when it is off."""
    name = _C.autocast_dtype()
    return None if name is None else _dtype.to_dtype(name)
