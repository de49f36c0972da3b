"""mf.autocast: automatic mixed precision, as torch.autocast.

    with mf.autocast("cpu", dtype=mf.bfloat16):
        loss = model(x, y)          # matmuls, convolutions and attention in bfloat16
    loss.backward()                 # gradients reach the float32 weights in float32

Inside, the ops on torch's lower-precision list (matmul and so linear layers, conv2d, the
fused attention) run on their float32 inputs cast to the autocast dtype and return that dtype,
as torch's: oneDNN's bfloat16 matmul (AVX512-BF16 or AMX where the CPU has them) accumulating
in float32; tensor cores on a GPU. The ops on torch's float32 list (the losses, prod, linalg;
under autocast("cuda") also softmax, log_softmax, layer_norm, group_norm, exp, log, pow, sum,
cumsum, ...; the lists differ between torch's CPU and CUDA autocast, and `device_type` picks
one) run on bfloat16 or float16 inputs cast to float32 and return float32. Every other op runs
as called: an activation of a bfloat16 result computes in float32 and rounds to bfloat16 once,
and a bfloat16 tensor meeting a float32 one promotes to float32. The weights and optimizer
state stay float32 (master weights). When both operands of a matmul or attention were float32,
its backward products' float32 accumulators go straight to the float32 operands' gradients,
never rounded to bfloat16 (torch rounds them once more). The casts are ordinary ops:
autograd, every parallel layout and graph mode (traced inside the block) handle them.
As torch's, a parameter's cast is cached: made once inside the block and reused by every
later use (a weight tied in two places, the micro-batches of an accumulation loop run inside
the block), made again only after the parameter is written (an optimizer step,
load_state_dict); `cache_enabled=False` casts at every use. The block's exit drops the cache.
The setting is per thread; blocks nest and restore what was set before. `device_type` is
any registered type (mf.device_types(): "cpu", "cuda", ...), and `dtype` defaults to its
torch default (float16 for "cuda", bfloat16 otherwise); unlike torch, the setting applies to
the ops of every device, which for a model on one device is the same. float16's range is
narrow (up to 65504, gradients underflow): use mf.amp.GradScaler with it.
"""
from . import _C
from . import _device
from . import _dtype


class autocast:
    def __init__(self, device_type="cpu", dtype=None, enabled=True, cache_enabled=None):
        # cache_enabled (torch's cache of casted weights, on by default): a parameter is cast
        # once inside the block, and again only after a write to it (ops/functional.h).
        if not isinstance(device_type, str) or device_type not in _device.device_types():
            raise ValueError(f"autocast: device_type {device_type!r} is not supported; expected one of "
                             + ", ".join(_device.device_types()))
        if dtype is None:
            dtype = _dtype.float16 if device_type == "cuda" else _dtype.bfloat16
        dtype = _dtype.to_dtype(dtype)
        if dtype not in (_dtype.bfloat16, _dtype.float16):
            raise ValueError(f"autocast: dtype {dtype!r} is not supported; expected meshflow.bfloat16 or "
                             "meshflow.float16")
        self._state = (dtype.name if enabled else None, device_type, cache_enabled is not False)
        self._previous = []

    def __enter__(self):
        self._previous.append(_C.set_autocast(*self._state))
        return self

    def __exit__(self, *exc):
        _C.set_autocast(*self._previous.pop())
        return False

    def __call__(self, func):
        """As a decorator (`@mf.autocast("cpu")`): func runs inside the block, as torch's."""
        import functools

        @functools.wraps(func)
        def inside(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return inside


def autocast_dtype():
    """The dtype autocast runs matmuls, convolutions and attention in on this thread, or None
    when it is off."""
    name = _C.autocast_dtype()
    return None if name is None else _dtype.to_dtype(name)


def _on_float32_list(autocast_list):
    """Whether autocast now puts an op of `autocast_list` ("both": torch's CPU and CUDA float32
    lists; "cuda": CUDA's alone; None: neither) on its float32 list."""
    if autocast_list is None:
        return False
    dtype, device_type, _ = _C.autocast_state()
    return dtype is not None and (autocast_list == "both" or device_type == "cuda")


def halves_in_float32(autocast_list=None):
    """A decorator for a function composed of several ops in Python (a loss, a norm, an
    activation) that torch computes in one kernel: bfloat16 and float16 tensor arguments are
    computed in float32 and its floating results rounded once to their half dtype (the ops it
    is made of would each round), as the C++ ops do (ops/op.h, "Halves"). Where autocast puts
    it on torch's float32 list (`autocast_list`, see _on_float32_list), the results stay
    float32 instead, as torch's. Gradients flow through the casts."""
    import functools
    halves = (_dtype.bfloat16, _dtype.float16)

    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            found = {a.dtype for a in list(args) + list(kwargs.values()) if getattr(a, "dtype", None) in halves}
            if not found:
                return fn(*args, **kwargs)
            widen = lambda a: a.float() if getattr(a, "dtype", None) in halves else a
            out = fn(*[widen(a) for a in args], **{k: widen(v) for k, v in kwargs.items()})
            if len(found) > 1 or _on_float32_list(autocast_list):
                return out  # bfloat16 with float16 promotes to float32
            half = found.pop()
            back = lambda t: t.to(half) if getattr(t, "dtype", None) == _dtype.float32 else t
            return tuple(back(t) for t in out) if isinstance(out, tuple) else back(out)
        return wrapper
    return decorate
