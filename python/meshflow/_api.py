"""PyTorch's conveniences around tensors, composed of meshflow's ops: clone, the new_*
constructors, t, movedim, tile, outer, diag, meshgrid, repeat_interleave, type_as, equal,
allclose, isclose, is_tensor, numel, Size, finfo / iinfo, as_tensor, element_size,
is_floating_point. Each follows torch's signature and result dtype."""
import builtins
import numbers

import numpy as _np

from . import _dtype
from ._tensor import Tensor, apply, tensor

__all__ = ["clone", "t", "movedim", "moveaxis", "tile", "outer", "diag", "meshgrid", "repeat_interleave",
           "equal", "allclose", "isclose", "is_tensor", "is_floating_point", "numel", "Size", "finfo", "iinfo",
           "as_tensor", "count_nonzero"]


class Size(tuple):
    """A shape, as torch.Size: a tuple of ints (equal to the plain tuple)."""

    def __repr__(self):
        return f"meshflow.Size({list(self)!r})"

    def numel(self):
        n = 1
        for d in self:
            n *= d
        return n


def clone(input):
    """A copy of input, recorded for autograd (its gradient flows back to input)."""
    if input.ndim == 0:
        return apply("reshape", [apply("slice", [input.reshape(1)], {"starts": [0], "stops": [1], "steps": [1]})[0]],
                     {"shape": []})[0]
    return apply("slice", [input], {"starts": [0] * input.ndim, "stops": list(input.shape),
                                    "steps": [1] * input.ndim})[0]


def t(input):
    """The transpose of a tensor of at most 2 dims (torch.t)."""
    if input.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    return input if input.ndim < 2 else input.transpose(0, 1)


def movedim(input, source, destination):
    """input with dims `source` moved to `destination` (ints or sequences of them)."""
    src = [source] if isinstance(source, numbers.Integral) else list(source)
    dst = [destination] if isinstance(destination, numbers.Integral) else list(destination)
    if len(src) != len(dst):
        raise ValueError(f"movedim: source {source} and destination {destination} have different lengths")
    n = input.ndim
    src, dst = [s % n for s in src], [d % n for d in dst]
    order = [None] * n
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(i for i in range(n) if i not in src)
    order = [next(rest) if o is None else o for o in order]
    return input.permute(*order)


moveaxis = movedim


def tile(input, dims):
    """input repeated along each dim (dims prefixed with ones when shorter than input's)."""
    dims = tuple(dims)
    if len(dims) < input.ndim:
        dims = (1,) * (input.ndim - len(dims)) + dims
    return input.repeat(*dims)


def outer(input, vec2):
    """The outer product of two vectors."""
    if input.ndim != 1 or vec2.ndim != 1:
        raise RuntimeError(f"outer: expected 1-D tensors, got {input.ndim}-D and {vec2.ndim}-D")
    return input.reshape(-1, 1) * vec2.reshape(1, -1)


def diag(input, diagonal=0):
    """A vector's diagonal matrix, or a matrix's diagonal as a vector (torch.diag)."""
    if input.ndim == 1:
        from ._ops_creation import arange, zeros
        from ._ops_elementwise import where
        from ._ops_shape import cat
        k, n = input.shape[0], input.shape[0] + builtins.abs(diagonal)
        rows = arange(n, device=input.device).reshape(n, 1)
        cols = arange(n, device=input.device).reshape(1, n)
        # Column c holds input[c - max(diagonal, 0)]: the vector padded to n, as a row.
        row = cat([zeros(builtins.max(diagonal, 0), dtype=input.dtype, device=input.device), input,
                   zeros(builtins.max(-diagonal, 0), dtype=input.dtype, device=input.device)])
        return where(cols - rows == diagonal, row.reshape(1, n), zeros(1, 1, dtype=input.dtype, device=input.device))
    if input.ndim == 2:
        rows, cols = input.shape
        start_r, start_c = builtins.max(-diagonal, 0), builtins.max(diagonal, 0)
        length = builtins.max(0, builtins.min(rows - start_r, cols - start_c))
        flat = input.reshape(-1)
        first = start_r * cols + start_c
        if not length:
            return apply("slice", [flat], {"starts": [0], "stops": [0], "steps": [1]})[0]
        return apply("slice", [flat], {"starts": [first], "stops": [first + (length - 1) * (cols + 1) + 1],
                                       "steps": [cols + 1]})[0]
    raise RuntimeError(f"diag: expected a 1-D or 2-D tensor, got {input.ndim}-D")


def meshgrid(*tensors, indexing="ij"):
    """Coordinate grids of 1-d tensors (indexing 'ij' or 'xy', as torch)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing not in ("ij", "xy"):
        raise ValueError(f"meshgrid: indexing must be 'ij' or 'xy', got {indexing!r}")
    shape = [int(x.numel()) for x in tensors]
    if indexing == "xy" and len(tensors) >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, x in enumerate(tensors):
        dim = i
        if indexing == "xy" and len(tensors) >= 2 and i < 2:
            dim = 1 - i
        view = [1] * len(tensors)
        view[dim] = -1
        out.append(x.reshape(*view).expand(*shape))
    return tuple(out)


def repeat_interleave(input, repeats, dim=None):
    """Each element repeated `repeats` times (an int) along dim (flattened when None)."""
    if not isinstance(repeats, numbers.Integral):
        counts = _np.asarray(repeats.numpy() if isinstance(repeats, Tensor) else repeats).reshape(-1)
        if dim is None:
            input, dim = input.reshape(-1), 0
        index = tensor(_np.repeat(_np.arange(input.shape[dim]), counts), device=input.device)
        return input.index_select(dim, index)
    if dim is None:
        input, dim = input.reshape(-1), 0
    dim %= input.ndim
    shape = list(input.shape)
    expanded = input.unsqueeze(dim + 1).expand(*shape[:dim + 1], int(repeats), *shape[dim + 1:])
    shape[dim] *= int(repeats)
    return expanded.reshape(*shape)


def equal(input, other):
    """True when both have the same shape and values."""
    return tuple(input.shape) == tuple(other.shape) and bool((input == other).all())


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|input - other| <= atol + rtol * |other| elementwise (bool), as torch.isclose."""
    from ._ops_elementwise import abs as _abs
    close = (_abs(input - other) <= atol + rtol * _abs(other)) | (input == other)
    if equal_nan:
        close = close | ((input != input) & (other != other))
    return close


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(isclose(input, other, rtol, atol, equal_nan).all())


def count_nonzero(input, dim=None):
    nonzero = (input != 0).to(_dtype.int64)
    return nonzero.sum() if dim is None else nonzero.sum(dim)


def is_tensor(obj):
    return isinstance(obj, Tensor)


def is_floating_point(input):
    return input.dtype.name.startswith(("float", "bfloat"))


def numel(input):
    return input.numel()


class finfo:
    """A floating dtype's limits, as torch.finfo: bits, eps, max, min, tiny, resolution."""

    def __init__(self, type=None):
        d = _dtype.to_dtype(type or _dtype.float32)
        if d.name == "bfloat16":
            self.bits, self.eps, self.max, self.tiny, self.resolution = 16, 2.0 ** -7, 3.3895313892515355e38, \
                2.0 ** -126, 0.01
        else:
            info = _np.finfo(d.numpy)
            self.bits, self.eps, self.max, self.tiny = info.bits, float(info.eps), float(info.max), \
                float(info.tiny)
            self.resolution = float(info.resolution)
        self.min = -self.max
        self.smallest_normal = self.tiny
        self.dtype = d.name


class iinfo:
    """An integer dtype's limits, as torch.iinfo: bits, max, min."""

    def __init__(self, type):
        d = _dtype.to_dtype(type)
        info = _np.iinfo(d.numpy)
        self.bits, self.max, self.min, self.dtype = info.bits, int(info.max), int(info.min), d.name


def as_tensor(data, dtype=None, device=None):
    """data as a tensor: itself when it is one already of that dtype and device."""
    if isinstance(data, Tensor):
        out = data if dtype is None else data.to(dtype)
        return out if device is None else out.to(device)
    return tensor(data, dtype=dtype, device=device)


def _new(make):
    def method(self, *size, dtype=None, device=None, requires_grad=False):
        if self.is_global:
            raise RuntimeError("new_* makes a local tensor; on a global tensor use the creation op with a "
                               "placement and sbp")
        out = make(*size, dtype=dtype or self.dtype, device=device or self.device)
        return out.requires_grad_(True) if requires_grad else out
    return method


def _new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
    from ._ops_creation import full
    out = full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device)
    return out.requires_grad_(True) if requires_grad else out


def _new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    return tensor(data, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def _element_size(self):
    return 2 if self.dtype.name == "bfloat16" else self.dtype.numpy.itemsize


def _type_as(self, other):
    return self.to(other.dtype)


def _install():
    from . import _ops_creation as c
    Tensor.clone = clone
    Tensor.t = t
    Tensor.movedim = movedim
    Tensor.moveaxis = movedim
    Tensor.tile = tile
    Tensor.outer = outer
    Tensor.diag = diag
    Tensor.repeat_interleave = repeat_interleave
    Tensor.equal = equal
    Tensor.allclose = allclose
    Tensor.isclose = isclose
    Tensor.count_nonzero = count_nonzero
    Tensor.is_floating_point = is_floating_point
    Tensor.element_size = _element_size
    Tensor.type_as = _type_as
    Tensor.view_as = lambda self, other: self.reshape(*other.shape)
    Tensor.new_zeros = _new(c.zeros)
    Tensor.new_ones = _new(c.ones)
    Tensor.new_empty = _new(c.empty)
    Tensor.new_full = _new_full
    Tensor.new_tensor = _new_tensor
    Tensor.nelement = Tensor.numel


_install()


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct values (sorted), with the inverse indices and counts when asked, as
    torch.unique. The result's size depends on the values: they are read on the host (a
    global tensor's gathered on every rank) and the result is a local tensor."""
    if dim is not None:
        raise NotImplementedError("unique(dim=...) is not supported; expected dim=None")
    values, inverse, counts = _np.unique(input.numpy(), return_inverse=True, return_counts=True)
    out = tensor(values, dtype=input.dtype) if input.is_global else tensor(values, dtype=input.dtype,
                                                                           device=input.device)
    extra = []
    if return_inverse:
        extra.append(tensor(inverse.reshape(input.shape).astype(_np.int64)))
    if return_counts:
        extra.append(tensor(counts.astype(_np.int64)))
    return (out, *extra) if extra else out


def bincount(input, weights=None, minlength=0):
    """How often each value of a 1-d non-negative integer tensor occurs (summing `weights`
    instead when given), as torch.bincount; read on the host like unique."""
    values = input.numpy()
    if values.ndim != 1 or values.dtype.kind not in "iu":
        raise RuntimeError(f"bincount only supports 1-d non-negative integral inputs, got shape "
                           f"{tuple(input.shape)} and dtype {input.dtype.name}")
    if values.size and values.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return tensor(_np.bincount(values, minlength=minlength).astype(_np.int64))
    w = weights.numpy()
    out = _np.bincount(values, weights=w, minlength=minlength)
    return tensor(out, dtype=weights.dtype if weights.dtype.name == "float32" else _dtype.float64)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """NaN -> nan, +inf -> posinf, -inf -> neginf (the dtype's largest / lowest by default)."""
    from ._ops_elementwise import where
    if not is_floating_point(input):
        return clone(input)
    info = finfo(input.dtype)
    out = where(input != input, nan, input)
    out = where(out == float("inf"), info.max if posinf is None else posinf, out)
    return where(out == float("-inf"), info.min if neginf is None else neginf, out)


__all__ += ["unique", "bincount", "nan_to_num"]
Tensor.unique = unique
Tensor.bincount = bincount
Tensor.nan_to_num = nan_to_num
