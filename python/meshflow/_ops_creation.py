"""Creation ops, as PyTorch names them: zeros, ones, full, arange, rand, randn, manual_seed,
get_rng_state, set_rng_state (the generator's state as a uint8 tensor, torch's form).

Each makes a local tensor (on device=, the CPU by default), or with placement= and sbp= a
global one: then every rank calls it with the same arguments, and each computes only its own
part. A global tensor's value
does not depend on its placement or SBP; for rand and randn it is also the value that a
local call after the same manual_seed would give (see meshflow/ops/creation.h).
"""
import functools as _functools
import numbers
import operator

import numpy as _np

from . import _C
from . import _device, _dtype
from ._promotion import get_default_dtype
from ._tensor import Tensor, _check_placement, apply

__all__ = ["zeros", "ones", "full", "arange", "rand", "randn", "manual_seed", "get_rng_state", "set_rng_state",
           "zeros_like", "ones_like", "full_like", "rand_like", "randn_like", "eye", "linspace", "logspace"]


def _dim(d):
    """A dim of a size as an int: an int or what has __index__ (a NumPy int, a 0-d integer
    tensor), as torch's take; None for anything else (bools too)."""
    if isinstance(d, bool):
        return None
    try:
        return operator.index(d)
    except TypeError:
        return None


def _size(name, size, keyword=None):
    """The shape from f(2, 3), f((2, 3)) / f([2, 3]) or torch's keyword f(size=(2, 3))."""
    if keyword is not None:
        if size:
            raise TypeError(f"{name}: give the size as arguments or as size=, not both")
        size = (keyword,) if isinstance(keyword, numbers.Integral) else (tuple(keyword),)
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    if not all(type(d) is int for d in size):
        dims = [_dim(d) for d in size]
        if None in dims:
            raise TypeError(f"{name}: sizes must be ints, got {tuple(size)!r}")
        size = dims
    for d in size:
        if d < 0:
            raise _C.OpError(f"{name}: size {tuple(size)!r} has a negative dim; expected sizes >= 0")
    numel = 1
    for d in size:
        numel *= int(d)
    if numel >= 1 << 63 or any(d >= 1 << 63 for d in size):
        raise _C.OpError(f"{name}: size {tuple(size)!r} has more elements than int64 can count")
    return [int(d) for d in size]


def _create(name, attrs, dtype, placement, sbp, device):
    attrs["dtype"] = getattr(_C.DType, _dtype.to_dtype(dtype).name)
    if device is not None:
        device = _device.device(device)  # checked first, whatever else is given
        if placement is not None:
            raise ValueError(f"{name}: give a device (a local tensor) or a placement (a global one), not both")
    if placement is None and sbp is None:
        device = device or _device.default
        if device is not None and device.type == "meta":  # no values to compute
            return Tensor(_C.create_on_meta(name, attrs))
        made = apply(name, [], attrs)[0]  # creation runs on the host
        return made if device is None else made.to(device)
    if placement is None or sbp is None:
        raise ValueError(f"{name}: a global tensor needs both placement and sbp")
    return apply(name, [], attrs, placement=_check_placement(placement), sbp=sbp)[0]


def zeros(*args, size=None, dtype=None, placement=None, sbp=None, device=None):
    """A tensor of zeros; zeros(2, 3), zeros((2, 3)) or zeros(size=(2, 3)). sbp may also be partial_sum."""
    return _create("zeros", {"shape": _size("zeros", args, size)}, dtype or get_default_dtype(), placement, sbp, device)


def ones(*args, size=None, dtype=None, placement=None, sbp=None, device=None):
    return _create("ones", {"shape": _size("ones", args, size)}, dtype or get_default_dtype(), placement, sbp, device)


def full(size, fill_value, dtype=None, placement=None, sbp=None, device=None):
    """A tensor of `fill_value`; its dtype by default follows PyTorch: bool for a bool, int64 for
    an int, the default float dtype's complex for a complex number, else the default float dtype
    (float32)."""
    if isinstance(fill_value, numbers.Complex) and not isinstance(fill_value, numbers.Real):
        dtype = _dtype.complex_of(get_default_dtype()) if dtype is None else _dtype.to_dtype(dtype)
        if not dtype.is_complex:
            raise RuntimeError(f"full: value {fill_value} cannot be converted to type {dtype.name} without overflow")
        parts = [full(size, part, _dtype.real_of(dtype), placement, sbp, device)
                 for part in (fill_value.real, fill_value.imag)]
        return apply("complex", parts)[0]
    if not isinstance(fill_value, numbers.Real):
        raise TypeError(f"full: fill_value must be a number, got {type(fill_value).__name__}")
    exact = isinstance(fill_value, numbers.Integral)
    if dtype is None:
        dtype = _dtype.bool_ if isinstance(fill_value, bool) else _dtype.int64 if exact else get_default_dtype()
    value = int(fill_value) if exact else float(fill_value)
    return _create("full", {"shape": _size("full", (size,)), "value": value}, dtype, placement, sbp, device)


def arange(start, end=None, step=1, dtype=None, placement=None, sbp=None, device=None):
    """start, start + step, ... up to end (excluded); arange(n) is 0 .. n-1.

    The dtype by default is int64 when start, end and step are ints, else the default float dtype (float32).
    """
    if end is None:
        start, end = 0, start
    bounds = {"start": start, "end": end, "step": step}
    for key, value in bounds.items():
        if not isinstance(value, numbers.Real):
            raise TypeError(f"arange: {key} must be a real number, got {type(value).__name__}")
    exact = all(isinstance(v, numbers.Integral) for v in bounds.values())
    if dtype is None:
        dtype = _dtype.int64 if exact else get_default_dtype()
    attrs = {k: int(v) if isinstance(v, numbers.Integral) else float(v) for k, v in bounds.items()}
    return _create("arange", attrs, dtype, placement, sbp, device)


def manual_seed(seed):
    """Seeds rand and randn (on this rank; call it with the same seed on every rank) and returns
    the process's generator, as torch's."""
    if not isinstance(seed, numbers.Integral) or isinstance(seed, bool):
        raise TypeError(f"manual_seed: seed must be an int, got {type(seed).__name__}")
    _C.manual_seed(int(seed) % (1 << 64))
    from ._api import default_generator  # the process's generator, which torch's returns
    return default_generator


def get_rng_state():
    """The random generator's state as torch's: a uint8 tensor (its 64-bit seed and offset, 16
    bytes, little-endian; torch's holds its own generator's bytes), so it goes into a
    checkpoint with mf.save. set_rng_state(state) makes later draws repeat those that
    followed this call."""
    seed, offset = _C.generator_state()
    return rng_state_tensor(seed, offset)


def rng_state_tensor(seed, offset):
    """A generator state (seed, offset) as get_rng_state's uint8 tensor."""
    import struct
    import numpy as np
    from ._tensor import tensor
    return tensor(np.frombuffer(struct.pack("<QQ", seed % (1 << 64), offset % (1 << 64)), np.uint8))


def rng_state_values(state, what="set_rng_state"):
    """(seed, offset) of get_rng_state()'s tensor, or of the {"seed", "offset"} dict meshflow's
    get_rng_state returned before (checkpoints written then still load)."""
    import struct
    from ._tensor import Tensor
    if isinstance(state, Tensor) and state.dtype == _dtype.uint8 and tuple(state.shape) == (16,):
        return struct.unpack("<QQ", bytes(state._numpy().tolist()))
    if isinstance(state, dict) and set(state) == {"seed", "offset"} and all(
            isinstance(state[k], numbers.Integral) and not isinstance(state[k], bool) and 0 <= state[k] < 1 << 64
            for k in state):
        return int(state["seed"]), int(state["offset"])
    raise _C.OpError(f"{what}: expected the uint8 tensor of 16 bytes get_rng_state() returns, got {state!r}")


def set_rng_state(state):
    """Restores a state from get_rng_state() (on every rank, as manual_seed)."""
    _C.set_generator_state(*rng_state_values(state))


def _random(name, size, dtype, placement, sbp, device, generator=None):
    shape = _size(name, size)
    if dtype is not None and _dtype.to_dtype(dtype).is_complex:
        # torch's: real and imaginary parts drawn alike (randn's each of variance 1/2).
        parts = _random(name, list(shape) + [2], _dtype.real_of(_dtype.to_dtype(dtype)), placement, sbp, device,
                        generator)
        return apply("view_as_complex", [parts * 0.5 ** 0.5 if name == "randn" else parts])[0]
    numel = 1
    for d in shape:
        numel *= d
    # A draw on the meta device takes no values from the generator, as torch's.
    on_meta = placement is None and _device.device(device or _device.default or "cpu").type == "meta"
    seed, offset = (0, 0) if on_meta else _next_call(numel, generator)
    return _create(name, {"shape": shape, "seed": seed, "offset": offset}, dtype or get_default_dtype(), placement, sbp,
                   device)


def _next_call(numel, generator):
    """The (seed, offset) of a draw of numel values: from the process's generator, or from
    `generator` (an mf.Generator), which then advances alone."""
    return _C.next_random_call(numel) if generator is None else generator._next_call(numel)


def rand(*args, size=None, generator=None, dtype=None, placement=None, sbp=None, device=None):
    """Uniform in [0, 1), float32 or float64 (by default the default float dtype); complex: each part."""
    return _random("rand", _size("rand", args, size), dtype, placement, sbp, device, generator)


def randn(*args, size=None, generator=None, dtype=None, placement=None, sbp=None, device=None):
    """Standard normal, float32 or float64 (by default the default float dtype); complex: parts of variance 1/2."""
    return _random("randn", _size("randn", args, size), dtype, placement, sbp, device, generator)


def _like(make, t, dtype, device, *args, memory_format=None):
    """make(*args, shape of t) with t's dtype (or `dtype`) where t is: its device (or
    `device`), or its placement and SBP (a partial one as broadcast: the value is what is
    made, not its parts; `device` then is refused by the creation op); in t's memory format
    (torch's preserve_format, its default) or the one given."""
    dtype = dtype or t.dtype
    if t.is_global:
        from .sbp import broadcast
        sbp = tuple(broadcast if s.is_partial else s for s in t.sbp)
        return make(*args, t.shape, dtype=dtype, placement=t.placement, sbp=sbp, device=device)
    out = make(*args, t.shape, dtype=dtype, device=t.device if device is None else device)
    if memory_format is None or getattr(memory_format, "_name", None) == "preserve_format":
        if not t._impl.channels_last:
            return out
        from ._tensor import _to_format
        return _to_format(out, True)
    from ._tensor import _in_memory_format
    return _in_memory_format(out, memory_format)


def zeros_like(input, dtype=None, device=None, *, memory_format=None):
    return _like(zeros, input, dtype, device, memory_format=memory_format)


def ones_like(input, dtype=None, device=None, *, memory_format=None):
    return _like(ones, input, dtype, device, memory_format=memory_format)


def full_like(input, fill_value, dtype=None, device=None, *, memory_format=None):
    return _like(lambda value, shape, **kw: full(shape, value, **kw), input, dtype, device, fill_value,
                 memory_format=memory_format)


def rand_like(input, dtype=None, generator=None, device=None, *, memory_format=None):
    return _like(lambda shape, **kw: rand(shape, generator=generator, **kw), input, dtype, device,
                 memory_format=memory_format)


def randn_like(input, dtype=None, generator=None, device=None, *, memory_format=None):
    return _like(lambda shape, **kw: randn(shape, generator=generator, **kw), input, dtype, device,
                 memory_format=memory_format)


def eye(n, m=None, dtype=None, placement=None, sbp=None, device=None):
    """The n x m identity (ones on the diagonal, zeros elsewhere)."""
    from ._ops_elementwise import cast, eq
    m = n if m is None else m
    rows = arange(n, placement=placement, sbp=sbp, device=device).reshape(n, 1)
    cols = arange(m, placement=placement, sbp=sbp, device=device).reshape(1, m)
    return cast(eq(rows, cols), dtype or get_default_dtype())


def linspace(start, end, steps, dtype=None, placement=None, sbp=None, device=None):
    """`steps` values from start to end, evenly spaced, both ends included: torch's values bit
    for bit (ops/range_math.h)."""
    attrs = {"start": float(start), "end": float(end), "steps": int(steps)}  # 0-d tensors too
    return _create("linspace", attrs, dtype or get_default_dtype(), placement, sbp, device)


def logspace(start, end, steps, base=10.0, dtype=None, placement=None, sbp=None, device=None):
    """base ** linspace(start, end, steps): torch's values bit for bit (ops/range_math.h)."""
    attrs = {"start": float(start), "end": float(end), "steps": int(steps), "base": float(base)}
    return _create("logspace", attrs, dtype or get_default_dtype(), placement, sbp, device)


def empty(*args, size=None, dtype=None, placement=None, sbp=None, device=None):
    """A tensor whose values the caller will overwrite: zeros here (meshflow never hands out
    uninitialized memory, so results never depend on what it held)."""
    return _create("zeros", {"shape": _size("empty", args, size)}, dtype or get_default_dtype(), placement, sbp, device)


def empty_like(input, dtype=None, device=None, *, memory_format=None):
    return _like(empty, input, dtype, device, memory_format=memory_format)


def _taking_requires_grad(make):
    """make(...) with PyTorch's requires_grad= keyword (a leaf that requires grad)."""
    import functools

    @functools.wraps(make)
    def made(*args, requires_grad=False, **kwargs):
        out = make(*args, **kwargs)
        return out.requires_grad_(True) if requires_grad else out
    return made


__all__ += ["empty", "empty_like"]
for _name in __all__:
    if _name not in ("manual_seed", "get_rng_state", "set_rng_state"):
        globals()[_name] = _taking_requires_grad(globals()[_name])
# zeros(3), ones(3), empty(3) (exact ints alone) in C (_C.creation_function): one call.
for _name, _op in (("zeros", "zeros"), ("ones", "ones"), ("empty", "zeros")):
    _made = globals()[_name]
    globals()[_name] = _functools.update_wrapper(_C.creation_function(_op, _made), _made)
    globals()[_name].remake = _functools.partial(_C.creation_function, _op)  # _numpy_names remakes it (out=)
del _name, _op, _made
