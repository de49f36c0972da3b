"""PyTorch's conveniences around tensors, composed of meshflow's ops: clone, the new_*
constructors, t, movedim, tile, outer, diag, meshgrid, repeat_interleave, type_as, equal,
allclose, isclose, is_tensor, numel, Size, finfo / iinfo, as_tensor, element_size,
is_floating_point. Each follows torch's signature and result dtype."""
import builtins
import functools as _functools
import numbers
import operator

import numpy as _np

from . import _C, _dtype
from . import _function as _autograd_function
from ._promotion import get_default_dtype
from ._tensor import Size, Tensor, _impl_of, _in_memory_format, _shared_numpy, apply, set_printoptions, tensor
from .return_types import named as _returns

__all__ = ["clone", "t", "movedim", "moveaxis", "tile", "outer", "diag", "meshgrid", "repeat_interleave",
           "equal", "allclose", "isclose", "is_tensor", "is_floating_point", "numel", "Size", "finfo", "iinfo",
           "as_tensor", "count_nonzero"]


def clone(input, *, memory_format=None):
    """A copy of input, recorded for autograd (its gradient flows back to input): the slice op
    over all of it, in C++ (fn::clone), in input's memory format (torch's preserve_format) or
    the one given."""
    out = Tensor(_C.unary("clone", _impl_of("clone", input)))
    return out if memory_format is None else _in_memory_format(out, memory_format)


def t(input):
    """The transpose of a tensor of at most 2 dims (torch.t)."""
    if input.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    return input if input.ndim < 2 else _C.grad_fn_as(input.transpose(0, 1), "TBackward0", input)


def movedim(input, source, destination):
    """input with dims `source` moved to `destination` (ints or sequences of them)."""
    src = [source] if isinstance(source, numbers.Integral) else list(source)
    dst = [destination] if isinstance(destination, numbers.Integral) else list(destination)
    if len(src) != len(dst):
        raise ValueError(f"movedim: source {source} and destination {destination} have different lengths")
    n = input.ndim
    src, dst = [s % builtins.max(n, 1) for s in src], [d % builtins.max(n, 1) for d in dst]
    if n == 0:  # dims 0 and -1 name a scalar's only place, as torch's
        return input.permute()
    order = [None] * n
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(i for i in range(n) if i not in src)
    order = [next(rest) if o is None else o for o in order]
    return input.permute(*order)


moveaxis = movedim


def tile(input, *dims):
    """input repeated along each dim (dims prefixed with ones when shorter than input's); dims
    a sequence or ints, as torch's (`x.tile(2)`, `x.tile((2, 1))`)."""
    dims = tuple(dims[0]) if len(dims) == 1 and not isinstance(dims[0], int) else tuple(dims)
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


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element repeated `repeats` times (an int or a tensor of counts) along dim
    (flattened when None); without repeats, input holds counts: each index repeated its count
    times (torch's one-argument form). output_size is the result's size along dim (checked)."""
    if repeats is None:
        from ._ops_creation import arange
        return repeat_interleave(arange(input.shape[0], device=input.device), input, output_size=output_size)
    if output_size is not None:
        out = repeat_interleave(input, repeats, dim)
        if out.shape[0 if dim is None else dim] != output_size:
            raise RuntimeError(f"repeat_interleave: output_size {output_size} differs from the repeats' total "
                               f"{out.shape[0 if dim is None else dim]}")
        return out
    if not isinstance(repeats, numbers.Integral):
        counts = _np.asarray(repeats._numpy() if isinstance(repeats, Tensor) else repeats).reshape(-1)
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
    out = expanded.reshape(*shape)
    return out.clone() if int(repeats) == 1 else out  # one repeat reshapes to a view: torch's is new


def equal(input, other):
    """True when both have the same shape and values."""
    return tuple(input.shape) == tuple(other.shape) and bool((input == other).all())


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|input - other| <= atol + rtol * |other| elementwise (bool), as torch.isclose; tensors
    of two dtypes are refused, as torch's ("Float did not match Double")."""
    from ._ops_elementwise import abs as _abs
    if isinstance(other, Tensor) and input.dtype != other.dtype:
        raise RuntimeError(f"isclose: input is {input.dtype.name} and other {other.dtype.name}; expected tensors of "
                           "one dtype (cast one first)")
    if input.dtype == other.dtype == _dtype.bool_:
        return input == other  # no difference of bools: equal is close
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

    # dtype name -> (bits, eps, max, tiny, resolution): models call finfo in every forward
    # (Hugging Face's attention masks with finfo(dtype).min), and NumPy's finfo.tiny takes
    # tens of microseconds.
    _limits = {"bfloat16": (16, 2.0 ** -7, 3.3895313892515355e38, 2.0 ** -126, 0.01)}

    def __init__(self, type=None):
        d = _dtype.to_dtype(type or get_default_dtype())
        limits = finfo._limits.get(d.name)
        if limits is None:
            info = _np.finfo(d.numpy)
            limits = finfo._limits[d.name] = (info.bits, float(info.eps), float(info.max), float(info.tiny),
                                              10.0 ** -info.precision)  # torch's (NumPy's float16 one rounds)
        self.bits, self.eps, self.max, self.tiny, self.resolution = limits
        self.min = -self.max
        self.smallest_normal = self.tiny
        self.dtype = d.name

    def __repr__(self):  # torch's, each value in %g
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    """An integer dtype's limits, as torch.iinfo: bits, max, min."""

    def __init__(self, type):
        d = _dtype.to_dtype(type)
        info = _np.iinfo(d.numpy)
        self.bits, self.max, self.min, self.dtype = info.bits, int(info.max), int(info.min), d.name

    def __repr__(self):  # torch's, each value in %g
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


def as_tensor(data, dtype=None, device=None):
    """data as a tensor: itself when it is one already of that dtype and device; a NumPy array
    of that dtype over its memory on the CPU, as from_numpy."""
    if isinstance(data, Tensor):
        out = data if dtype is None else data.to(dtype)
        return out if device is None else out.to(device)
    shared = _shared_numpy(data, dtype, device)
    return shared if shared is not None else tensor(data, dtype=dtype, device=device)


def _new(make):
    # Of a global tensor too: a local tensor on this rank's device, which a global op takes as
    # broadcast on its placement (implicit replication), as a tensor a forward makes.
    def method(self, *args, size=None, dtype=None, device=None, requires_grad=False):
        out = make(*args, size=size, dtype=dtype or self.dtype, device=device or self.device)
        return out.requires_grad_(True) if requires_grad else out
    return method


def _new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
    from ._ops_creation import full
    out = full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device)
    return out.requires_grad_(True) if requires_grad else out


def _new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    return tensor(data, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def _legacy_new(self, *args, device=None):
    """torch's legacy Tensor.new (char-RNN tutorials' `weight.new(n, b, h).zero_()`): sizes
    (ints or a Size) give an uninitialized tensor of that shape, data (a list, an array, a
    tensor) a tensor of those values, no argument an empty one; always of self's dtype, on
    self's device unless given one. torch takes no dtype= here, and a tensor of another dtype
    is refused as torch refuses it."""
    from . import _ops_creation as c
    device = device or self.device
    if len(args) == 1 and isinstance(args[0], Tensor):
        if args[0].dtype != self.dtype:
            raise TypeError(f"new(): expected a tensor of dtype {self.dtype}, got {args[0].dtype}")
        return args[0].detach()
    if len(args) == 1 and not isinstance(args[0], Size) and not hasattr(args[0], "__index__"):
        return tensor(args[0], dtype=self.dtype, device=device)
    return c.empty(*args, dtype=self.dtype, device=device) if args else c.empty(0, dtype=self.dtype, device=device)


def _element_size(self):
    return 2 if self.dtype.name == "bfloat16" else self.dtype.numpy.itemsize


def _type_as(self, other):
    return self.to(other.dtype)


def _install():
    from . import _ops_creation as c
    Tensor.clone = _functools.update_wrapper(_C.unary_method("clone", clone), clone)  # in C: one call
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
    Tensor.new = _legacy_new
    Tensor.nelement = Tensor.numel


_install()


def _local_device(input):
    """Where a result read on the host goes back to, as torch's: the input's device; the
    CPU (None) for a global input, whose value every rank gathered."""
    return None if input.is_global else input.device


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct values (sorted), or with `dim` the distinct slices along it, with the
    inverse indices and counts when asked, as torch.unique. The result's size depends on the
    values: they are read on the host (a global tensor's gathered on every rank) and the result
    is a local tensor."""
    array = input._numpy()
    if dim is not None:
        dim = dim % max(array.ndim, 1)
    # each NaN its own value, as torch's (NumPy's default merges them)
    nan_apart = {"equal_nan": False} if dim is None else {}
    values, inverse, counts = _np.unique(array, return_inverse=True, return_counts=True, axis=dim, **nan_apart)
    return _unique_result(input, values, inverse.reshape(input.shape if dim is None else -1), counts, return_inverse,
                          return_counts)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """unique of runs: each value (or slice along dim) that differs from the one before it,
    as torch.unique_consecutive; read on the host as unique."""
    array = input._numpy()
    d = 0 if dim is None else dim % max(array.ndim, 1)
    flat = array.reshape(-1) if dim is None else _np.moveaxis(array, d, 0)
    n = flat.shape[0]
    if n == 0:
        starts = _np.zeros(0, dtype=_np.int64)
    else:
        changed = (flat[1:] != flat[:-1]).reshape(n - 1, -1).any(axis=1)
        starts = _np.concatenate([[0], _np.nonzero(changed)[0] + 1])
    values = flat[starts] if dim is None else _np.moveaxis(flat[starts], 0, d)
    inverse = _np.cumsum(_np.isin(_np.arange(n), starts)) - 1
    counts = _np.diff(_np.append(starts, n))
    return _unique_result(input, values, inverse.reshape(input.shape if dim is None else -1), counts,
                          return_inverse, return_counts)


def _unique_result(input, values, inverse, counts, return_inverse, return_counts):
    device = _local_device(input)
    out = tensor(values, dtype=input.dtype, device=device)
    extra = []
    if return_inverse:
        extra.append(tensor(inverse.astype(_np.int64), device=device))
    if return_counts:
        extra.append(tensor(counts.astype(_np.int64), device=device))
    return (out, *extra) if extra else out


def bincount(input, weights=None, minlength=0):
    """How often each value of a 1-d non-negative integer tensor occurs (summing `weights`
    instead when given), as torch.bincount; read on the host like unique."""
    values = input._numpy()
    if values.ndim != 1 or values.dtype.kind not in "iu":
        raise RuntimeError(f"bincount only supports 1-d non-negative integral inputs, got shape "
                           f"{tuple(input.shape)} and dtype {input.dtype.name}")
    if values.size and values.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None or values.size == 0:  # torch's: int64 zeros for no values, weighted or not
        return tensor(_np.bincount(values, minlength=minlength).astype(_np.int64), device=_local_device(input))
    # torch's: float32 weights summed in float32, the others in float64, each in input order.
    dtype = _np.float32 if weights.dtype.name == "float32" else _np.float64
    w = weights._numpy().astype(dtype)
    out = _np.zeros(builtins.max(int(minlength), int(values.max()) + 1 if values.size else 0), dtype)
    _np.add.at(out, values, w)
    return tensor(out, device=_local_device(input))


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """NaN -> nan, +inf -> posinf, -inf -> neginf (the dtype's largest / lowest by default)."""
    from ._ops_elementwise import where
    if input.dtype.is_complex:  # each part, as torch's
        from ._complex import complex
        return complex(*(nan_to_num(part, nan, posinf, neginf) for part in (input.real, input.imag)))
    if not is_floating_point(input):
        return clone(input)
    info = finfo(input.dtype)
    out = where(input != input, nan, input)
    out = where(out == float("inf"), info.max if posinf is None else posinf, out)
    return where(out == float("-inf"), info.min if neginf is None else neginf, out)


__all__ += ["unique", "unique_consecutive", "bincount", "nan_to_num"]
Tensor.unique = unique
Tensor.unique_consecutive = unique_consecutive
Tensor.bincount = bincount
Tensor.nan_to_num = nan_to_num


# ---------------------------------------------------------------------------------------------
# More of torch's functions, composed of the ops above.

def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """beta * input + alpha * (mat1 @ mat2). With beta = alpha = 1 and one dtype, a 1-d input
    (a bias, as Hugging Face's Conv1D adds it) is added inside the product's kernel."""
    if beta == 1 and alpha == 1 and all(isinstance(t, Tensor) for t in (input, mat1, mat2)) and \
            mat1.ndim == 2 and mat2.ndim == 2 and input.dtype == mat1.dtype == mat2.dtype:
        out = Tensor(_C.addmm(input._impl, mat1._impl, mat2._impl))
    else:
        product = mat1 @ mat2
        out = _scaled(autocast_operand(input, product), beta) + _scaled(product, alpha)
    return _C.grad_fn_as(out, "AddmmBackward0", input, mat1, mat2)


def autocast_operand(input, product):
    """`input` in `product`'s dtype where autocast made the product in its lower precision:
    torch's addmm, baddbmm and addbmm are on autocast's lower-precision list whole, so their
    added input is cast too and the result is bfloat16 (float16), not promoted to float32."""
    low = _C.autocast_dtype()
    if low is not None and isinstance(input, Tensor) and input.dtype == _dtype.float32 and \
            product.dtype.name == low:
        return input.to(product.dtype)
    return input


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """beta * input + alpha * (batch1 @ batch2), batched."""
    product = batch1 @ batch2
    return _scaled(autocast_operand(input, product), beta) + _scaled(product, alpha)


def addcmul(input, tensor1, tensor2, *, value=1):
    """input + value * tensor1 * tensor2, the product taken in the dtype of all three (torch's:
    two uint8 tensors multiply in float32 beside a float32 input, never wrapping), rounded as
    torch's: (value * tensor1) * tensor2 + input, the last two one fused multiply-add."""
    t1, t2 = _pointwise_operands("addcmul", input, tensor1, tensor2, value)
    if isinstance(input, Tensor) and t1.dtype != _dtype.bool_ and not t1.dtype.is_complex and \
            not isinstance(value, complex):
        return apply("addcmul", [input.to(t1.dtype), t1, t2], {"value": float(value)})[0]  # halves: in float32
    return input + _scaled(t1 * t2, value)


def addcdiv(input, tensor1, tensor2, *, value=1):
    """input + value * tensor1 / tensor2, the quotient taken in the dtype of all three, in
    torch's order: (value * tensor1) / tensor2, then the sum."""
    if not tensor1.dtype.is_floating_point and not tensor2.dtype.is_floating_point:
        raise RuntimeError("Integer division with addcdiv is no longer supported, and in a future release "
                           "addcdiv will perform a true division of tensor1 and tensor2. Cast one of them "
                           "to a floating point dtype first")
    t1, t2 = _pointwise_operands("addcdiv", input, tensor1, tensor2, value)
    return input + _scaled(t1, value) / t2  # torch's order: (value * t1) / t2, then the sum


def _pointwise_operands(op, input, tensor1, tensor2, value):
    """tensor1 and tensor2 in the dtype an op on input, tensor1 and tensor2 gives (torch's
    addcmul / addcdiv promote all three before computing)."""
    from ._promotion import result_dtype
    dtype = result_dtype(input, tensor1, tensor2)
    if not dtype.is_floating_point and dtype != _dtype.bool_ and isinstance(value, float):
        raise RuntimeError(f"{op}: for integral input tensors, argument value must not be a floating point "
                           f"number (got {value})")
    return tensor1.to(dtype), tensor2.to(dtype)


def _scaled(x, factor):
    return x if factor == 1 else x * factor


def diagonal_layout(shape, offset, dim1, dim2):
    """How diagonal() finds the diagonal of a tensor of `shape`: the dims order that moves dim1
    and dim2 last, and the (start, stop, step) of the diagonal in those two dims flattened."""
    n = len(shape)
    dim1, dim2 = dim1 % n, dim2 % n
    order = [d for d in range(n) if d not in (dim1, dim2)] + [dim1, dim2]
    rows, cols = shape[dim1], shape[dim2]
    start_r, start_c = builtins.max(-offset, 0), builtins.max(offset, 0)
    length = builtins.max(0, builtins.min(rows - start_r, cols - start_c))
    if not length:  # an empty diagonal starts at 0: an offset past an empty dim is no element of it
        return order, (0, 0, cols + 1)
    first = start_r * cols + start_c
    return order, (first, first + (length - 1) * (cols + 1) + 1, cols + 1)


def diagonal(input, offset=0, dim1=0, dim2=1):
    """The diagonal of the (dim1, dim2) matrices, as a last dim (torch.diagonal; the method
    is a view: writes through it reach input, as torch's)."""
    order, (first, stop, step) = diagonal_layout(tuple(input.shape), offset, dim1, dim2)
    moved = input.permute(*order)
    flat = moved.reshape(*moved.shape[:-2], moved.shape[-2] * moved.shape[-1])
    k = flat.ndim - 1
    return _C.grad_fn_as(apply("slice", [flat], {"starts": [0] * k + [first], "stops": list(flat.shape[:-1]) + [stop],
                                                 "steps": [1] * k + [step]})[0], "DiagonalBackward0", input)


def trace(input):
    """The sum of a matrix's diagonal."""
    if input.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.ndim}")
    return _C.grad_fn_as(diagonal(input).sum(), "TraceBackward0", input)


def swapaxes(input, axis0, axis1):
    return input.transpose(axis0, axis1)


def atleast_1d(*tensors):
    out = [t.reshape(1) if t.ndim == 0 else t for t in _flat(tensors)]
    return out[0] if len(out) == 1 else tuple(out)


def atleast_2d(*tensors):
    out = [t.reshape(1, -1) if t.ndim < 2 else t for t in _flat(tensors)]
    return out[0] if len(out) == 1 else tuple(out)


def _flat(tensors):
    return list(tensors[0]) if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) else list(tensors)


def hstack(tensors):
    from ._ops_shape import cat
    tensors = [atleast_1d(t) for t in tensors]
    return cat(tensors, dim=0 if tensors[0].ndim == 1 else 1)


def vstack(tensors):
    from ._ops_shape import cat
    return cat([atleast_2d(t) for t in tensors], dim=0)


def column_stack(tensors):
    from ._ops_shape import cat
    return cat([t.reshape(-1, 1) if t.ndim <= 1 else t for t in tensors], dim=1)


def broadcast_shapes(*shapes):
    """The shape all the given shapes broadcast to (NumPy's rule, as torch's); a RuntimeError
    where they do not, as torch's."""
    shapes = [(s,) if isinstance(s, int) else tuple(s) for s in shapes]
    try:
        return Size(_np.broadcast_shapes(*shapes))
    except ValueError:
        raise _C.OpError(f"shapes {[list(s) for s in shapes]} cannot be broadcast together: each dim must be "
                           "equal, 1 or absent") from None


def broadcast_tensors(*tensors):
    shape = broadcast_shapes(*[t.shape for t in _flat(tensors)])
    return tuple(t.expand(*shape) for t in _flat(tensors))


def logaddexp(input, other):
    """log(exp(input) + exp(other)) without overflow, in the floating type the two promote to
    (a bool or integer input joins as torch's does)."""
    from ._ops_elementwise import _promote, _tensors, maximum, where
    from ._ops_math import log1p
    input, other = _tensors(*_promote(input, other, floats=True))
    top = maximum(input, other)
    gap = where(input == other, 0.0, input - other)  # equal infinities: no inf - inf (NaN), as torch's
    return top + log1p((-gap.abs()).exp())


def logit(input, eps=None):
    """log(x / (1 - x)), x clamped to [eps, 1 - eps] when eps is given; a bool or integer
    input is taken in the default floating type first (as torch's: 1 - x of a uint8 2 would
    wrap)."""
    if not input.is_floating_point():
        input = input.to(get_default_dtype())
    return _Logit.apply(input, eps)


class _Logit(_autograd_function.Function):
    """logit's gradient is torch's, 1 / (x (1 - x)) inside the domain, and outside it NaN (no
    eps) or 0 (x clamped by eps); differentiating log(x / (1 - x)) would give a finite gradient
    at an x below 0 or above 1, where the value is NaN."""

    @staticmethod
    def forward(ctx, input, eps):
        from ._ops_elementwise import where
        ctx.eps = eps
        ctx.save_for_backward(input)
        # torch's x < eps ? eps : x > 1 - eps ? 1 - eps : x (for eps > 0.5 too, where a clamp would give 1 - eps)
        x = input if eps is None else where(input < eps, eps, where(input > 1 - eps, 1 - eps, input))
        return (x / (1 - x)).log()

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        from ._ops_elementwise import where
        lo, hi = (0.0, 1.0) if ctx.eps is None else (ctx.eps, 1 - ctx.eps)
        outside = (x < lo) | (x > hi)
        return where(outside, _np.nan if ctx.eps is None else 0.0, grad / (x * (1 - x))), None


def sinc(input):
    """sin(pi x) / (pi x), 1 at 0."""
    from ._ops_elementwise import where
    x = input * _np.pi
    return where(input == 0, 1.0, x.sin() / where(input == 0, 1.0, x))


def deg2rad(input):
    return input * (_np.pi / 180)


def rad2deg(input):
    return input * (180 / _np.pi)


def fmax(input, other):
    """maximum, ignoring a NaN where the other value is a number."""
    from ._ops_elementwise import maximum, where
    return where(input != input, other, where(other != other, input, maximum(input, other)))


def fmin(input, other):
    from ._ops_elementwise import minimum, where
    return where(input != input, other, where(other != other, input, minimum(input, other)))


def true_divide(input, other):
    return input / other


def float_power(input, exponent):
    """input ** exponent in float64, or in complex128 where either is complex (torch's)."""
    is_complex = any(v.dtype.is_complex if isinstance(v, Tensor) else isinstance(v, complex) for v in (input, exponent))
    dtype = _dtype.complex128 if is_complex else _dtype.float64
    x = input.to(dtype) if isinstance(input, Tensor) else input
    e = exponent.to(dtype) if isinstance(exponent, Tensor) else exponent
    return x ** e


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    from ._ops_reduce import std
    return std(input, dim, unbiased, keepdim, correction=correction), _mean(input, dim, keepdim)


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    from ._ops_reduce import var
    return var(input, dim, unbiased, keepdim, correction=correction), _mean(input, dim, keepdim)


def _mean(input, dim, keepdim):
    return input.mean() if dim is None and not keepdim else input.mean(dim, keepdim=keepdim)


_AminMax = _returns("aminmax", ("min", "max"))


def aminmax(input, *, dim=None, keepdim=False):
    if dim is None:
        return _AminMax(input.amin(), input.amax())
    return _AminMax(input.amin(dim, keepdim=keepdim), input.amax(dim, keepdim=keepdim))


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """Differences of neighbours along dim, n times (of bools, whether they differ: xor, as torch)."""
    from ._ops_shape import cat
    if prepend is not None or append is not None:
        parts = [p for p in (prepend, input, append) if p is not None]
        input = cat(parts, dim=dim)
    for _ in range(n):
        size = input.shape[dim]
        kept = builtins.max(size - 1, 0)  # an empty dim stays empty, as torch's
        later, earlier = input.narrow(dim, size - kept, kept), input.narrow(dim, 0, kept)
        input = later ^ earlier if input.dtype == _dtype.bool_ else later - earlier
    return input.clone() if n == 0 and prepend is None and append is None else input  # never the argument itself


def tensor_split(input, indices_or_sections, dim=0):
    """Pieces along dim: n sections (the first size % n one longer) or cuts at the indices."""
    size = input.shape[dim]
    if isinstance(indices_or_sections, numbers.Integral):
        n = int(indices_or_sections)
        bounds = [i * (size // n) + builtins.min(i, size % n) for i in range(n + 1)]
    else:
        bounds = [0] + [builtins.min(builtins.max(int(i), 0), size) for i in indices_or_sections] + [size]
    return tuple(input.narrow(dim, a, builtins.max(b - a, 0)) for a, b in zip(bounds[:-1], bounds[1:]))


def hsplit(input, sections):
    return tensor_split(input, sections, dim=1 if input.ndim > 1 else 0)


def vsplit(input, sections):
    return tensor_split(input, sections, dim=0)


def dsplit(input, sections):
    """tensor_split along dim 2, of a tensor of 3 or more dims (torch.dsplit)."""
    if input.ndim < 3:
        raise RuntimeError(f"torch.dsplit requires a tensor with at least 3 dimension, but got a tensor with "
                           f"{input.ndim} dimensions!")
    return tensor_split(input, sections, dim=2)


def rot90(input, k=1, dims=(0, 1)):
    """Rotated by 90 degrees k times in the plane of dims (torch.rot90)."""
    d0, d1 = dims
    k %= 4
    if k == 1:
        return input.flip(d1).transpose(d0, d1)
    if k == 2:
        return input.flip(d0).flip(d1)
    if k == 3:
        return input.transpose(d0, d1).flip(d1)
    return input.clone()  # torch's result is never input (nor a view of it)



def cross(input, other, dim=None):
    """The cross product of 3-vectors along dim (the first dim of size 3 when None)."""
    from ._ops_shape import cat
    if dim is None:
        dim = next(i for i, s in enumerate(input.shape) if s == 3)
    a = [input.narrow(dim, i, 1) for i in range(3)]
    b = [other.narrow(dim, i, 1) for i in range(3)]
    parts = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    return _C.grad_fn_as(cat(parts, dim=dim), "LinalgCrossBackward0", input, other)


def dist(input, other, p=2):
    from . import linalg
    return linalg.vector_norm(input - other, p)


_CDIST_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist")


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """Pairwise p-norm distances between the rows of x1 [..., P, M] and x2 [..., R, M].
    compute_mode is torch's choice of algorithm for p=2 (a matrix product or differences),
    taken and checked; here it is always the differences (torch's matrix product agrees to
    rounding, and is exact at 0)."""
    from . import linalg
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode; expected one of {_CDIST_MODES}")
    return _C.grad_fn_as(linalg.vector_norm(x1.unsqueeze(-2) - x2.unsqueeze(-3), p, dim=-1), "CdistBackward0", x1, x2)


def kron(input, other):
    """The Kronecker product of two tensors of any dims: the one of fewer dims takes leading
    dims of size 1, and result dim i has size input.shape[i] * other.shape[i] (torch's)."""
    nd = builtins.max(input.ndim, other.ndim)
    a = input.reshape([1] * (nd - input.ndim) + list(input.shape))
    b = other.reshape([1] * (nd - other.ndim) + list(other.shape))
    spread_a = [s for n in a.shape for s in (n, 1)]  # a's dim i at 2i, b's at 2i + 1
    spread_b = [s for n in b.shape for s in (1, n)]
    return (a.reshape(spread_a) * b.reshape(spread_b)).reshape([m * n for m, n in zip(a.shape, b.shape)])


def tensordot(a, b, dims=2):
    """Contracts the last `dims` dims of a with the first of b (or the given lists)."""
    if isinstance(dims, numbers.Integral):
        dims_a, dims_b = list(range(a.ndim - dims, a.ndim)), list(range(dims))
    else:
        dims_a, dims_b = [list(d) if isinstance(d, (list, tuple)) else [d] for d in dims]
    dims_a = [d % a.ndim for d in dims_a]
    dims_b = [d % b.ndim for d in dims_b]
    free_a = [d for d in range(a.ndim) if d not in dims_a]
    free_b = [d for d in range(b.ndim) if d not in dims_b]
    k = 1
    for d in dims_a:
        k *= a.shape[d]
    left = a.permute(*free_a, *dims_a).reshape(-1, k)
    right = b.permute(*dims_b, *free_b).reshape(k, -1)
    return (left @ right).reshape(*[a.shape[d] for d in free_a], *[b.shape[d] for d in free_b])


def bucketize(input, boundaries, *, out_int32=False, right=False):
    """The index of the bucket of each value among sorted 1-d `boundaries` (torch's)."""
    return _insertion_points(boundaries, input, right, out_int32)


def _insertion_points(seq, vals, right, out_int32):
    """Where each of vals would go in seq's sorted last dim (vals [..., m] against seq [..., n]
    of the same leading dims, or seq 1-d): torch's binary search, step for step, so that NaN
    (which compares false) lands where torch's does: a NaN value after everything, a NaN
    boundary wherever the search's midpoints meet it."""
    from ._ops_creation import full_like, zeros_like
    from ._ops_elementwise import where
    n = seq.shape[-1]
    dtype = _dtype.int32 if out_int32 else _dtype.int64
    lo, hi = zeros_like(vals, dtype=_dtype.int64), full_like(vals, n, dtype=_dtype.int64)
    for _ in range(n.bit_length()):
        mid = (lo + hi) // 2
        at = mid.clamp(max=builtins.max(n - 1, 0))
        m = seq[at] if seq.ndim == 1 else seq.gather(-1, at)
        after = ~(m > vals) if right else ~(m >= vals)  # the search goes past mid
        searching = lo < hi
        lo = where(searching & after, mid + 1, lo)
        hi = where(searching & ~after, mid, hi)
    return lo.to(dtype)


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None):
    """Where each value would go in the sorted last dim of sorted_sequence (torch's); with
    sorter (the indices that sort an unsorted sequence, as argsort gives), in that order."""
    right = right or side == "right"
    if sorter is not None:
        sorted_sequence = sorted_sequence.gather(-1, sorter)
    return _insertion_points(sorted_sequence, values, right, out_int32)


def isin(elements, test_elements, *, invert=False):
    test = test_elements if isinstance(test_elements, Tensor) else tensor(test_elements,
                                                                          device=_local_device(elements))
    hit = (elements.unsqueeze(-1) == test.reshape(*([1] * elements.ndim), -1)).any(-1)
    return ~hit if invert else hit


def signbit(input):
    """Whether the sign bit is set (true for -0.0 and negative NaNs too)."""
    from ._ops_math import copysign
    return copysign(_ones_like_float(input), input) < 0


def _ones_like_float(input):
    from ._ops_creation import ones_like
    return ones_like(input, dtype=input.dtype if is_floating_point(input) else _dtype.float32)


def heaviside(input, values):
    from ._ops_elementwise import where
    return where(input == 0, values, where(input > 0, 1, 0).to(input.dtype))




def cummax(input, dim):
    """Running maxima along dim and the index of each (the last one among ties; a NaN, once
    met, holds), as torch's."""
    return _running("cummax", input, dim)


def cummin(input, dim):
    return _running("cummin", input, dim)


def _running(name, input, dim):
    from ._ops_shape import _normalize_dim
    d = _normalize_dim(name, dim, builtins.max(input.ndim, 1))
    if input.dtype == _dtype.bool_:  # as 0 and 1, as torch's
        values, indices = _running(name, input.to(_dtype.uint8), d)
        return _returns(name)(values.to(_dtype.bool_), indices)
    values, indices = apply(name, [input], {"dim": d})
    return _C.grad_fn_as(_returns(name)(values, indices), "CummaxBackward0" if name == "cummax" else "CumminBackward0",
                         input)


def seed():
    """Seeds meshflow's generator from the OS's entropy; returns the seed."""
    import os
    from ._ops_creation import manual_seed
    s = int.from_bytes(os.urandom(8), "little") >> 1
    manual_seed(s)
    return s


def initial_seed():
    return _C.generator_state()[0]


def set_num_threads(n):
    """The number of threads this process's CPU kernels use (their OpenMP teams and OpenBLAS),
    as torch.set_num_threads; it holds for ops issued afterwards."""
    if not isinstance(n, numbers.Integral) or isinstance(n, bool):
        raise TypeError(f"set_num_threads: expected an int, got {type(n).__name__}")
    _C.set_num_threads(int(n))


def get_num_threads():
    """The number of threads CPU kernels use: set_num_threads's, else OpenMP's default."""
    return _C.get_num_threads()


__all__ += ["addmm", "baddbmm", "addcmul", "addcdiv", "diagonal", "trace", "swapaxes", "atleast_1d", "atleast_2d",
            "hstack", "vstack", "column_stack", "broadcast_shapes", "broadcast_tensors", "logaddexp", "logit",
            "sinc", "deg2rad", "rad2deg", "fmax", "fmin", "true_divide", "float_power", "std_mean", "var_mean",
            "aminmax", "diff", "tensor_split", "hsplit", "vsplit", "dsplit", "rot90", "cross", "dist",
            "cdist", "kron", "tensordot", "bucketize", "searchsorted", "isin", "signbit", "heaviside", "cummax", "cummin",
            "seed", "initial_seed", "set_printoptions", "set_num_threads", "get_num_threads"]
for _name in ("addmm", "baddbmm", "addcmul", "addcdiv", "diagonal", "trace", "swapaxes", "logaddexp", "logit",
              "sinc", "deg2rad", "rad2deg", "fmax", "fmin", "true_divide", "float_power", "aminmax", "diff",
              "tensor_split", "hsplit", "vsplit", "dsplit", "rot90", "cross", "dist", "kron", "signbit", "heaviside",
              "cummax", "cummin"):
    setattr(Tensor, _name, globals()[_name])
Tensor.swapdims = swapaxes
del _name


def concat(tensors, dim=0):
    """torch.concat: cat."""
    from ._ops_shape import cat
    return cat(tensors, dim)


concatenate = concat


def matrix_power(input, n):
    """input @ input @ ... (n times, the identity for 0), by repeated squaring; a negative n
    is the power of the inverse, as torch's."""
    from ._ops_creation import eye
    n = operator.index(n)
    if n < 0:
        from .linalg import inv
        input, n = inv(input), -n
    size = input.shape[-1]
    result = eye(size, dtype=input.dtype, device=None if input.is_global else input.device).expand(*input.shape)
    base = input
    while n:
        if n & 1:
            result = result @ base
        n >>= 1
        if n:
            base = base @ base
    return result


def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    """The q-th quantiles (q a number or a 1-d tensor in [0, 1]) along dim (of all elements
    when None), torch's interpolation modes; from a sort. A slice holding a NaN gives NaN."""
    return _quantile(input, q, dim, keepdim, interpolation, ignore_nan=False)


def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    """quantile of the values that are not NaN (NaN where a slice has none), as torch's."""
    return _quantile(input, q, dim, keepdim, interpolation, ignore_nan=True)


def _quantile(input, q, dim, keepdim, interpolation, ignore_nan):
    from ._ops_math import sort
    from ._ops_elementwise import where, isnan
    if interpolation not in ("linear", "lower", "higher", "midpoint", "nearest"):
        raise ValueError(f"quantile: interpolation {interpolation!r}; expected linear, lower, higher, midpoint or "
                         "nearest")
    x = input.reshape(-1) if dim is None else input
    d = 0 if dim is None else dim % input.ndim
    values = sort(x, dim=d).values  # NaNs last
    nans = isnan(x).sum(d, keepdim=True)
    count = values.shape[d] - nans  # the values that are not NaN, per slice
    qs = q._numpy().reshape(-1).tolist() if isinstance(q, Tensor) else ([q] if isinstance(q, numbers.Real) else list(q))
    out = []
    for p in qs:
        if not 0 <= p <= 1:
            raise RuntimeError("quantile() q values must be in the range [0, 1]")
        # torch's: the rank in the input's dtype (q rounded to it), then lerp between the
        # neighbours (its rounding; midpoint a lerp by 0.5).
        rank = (count - 1).clamp(min=0).to(values.dtype) * float(_np.asarray(p, values.dtype.numpy))
        if interpolation in ("lower", "higher", "nearest"):
            rank = {"lower": rank.floor, "higher": rank.ceil, "nearest": rank.round}[interpolation]()
        lo = rank.floor()
        a = values.gather(d, lo.long())
        if interpolation in ("linear", "midpoint"):
            b = values.gather(d, rank.ceil().long())
            v = a.lerp(b, rank - lo if interpolation == "linear" else 0.5)
        else:
            v = a
        v = where((count == 0) if ignore_nan else (nans > 0), float("nan"), v)
        out.append(v if keepdim and dim is not None else v.squeeze(d))
    if isinstance(q, numbers.Real):
        return out[0].reshape([1] * input.ndim) if keepdim and dim is None else out[0]
    from ._ops_shape import stack
    return stack(out)


def histc(input, bins=100, min=0, max=0):
    """A histogram of `bins` equal bins over [min, max] (the data's range when min == max), as
    torch.histc: its edges are linspace's in input's dtype, and each value's bin is
    (value - first edge) * bins / (last edge - first edge) truncated, in that dtype (torch's
    histc interpolates; histogram searches the edges), the last edge in the last bin; values
    outside are ignored. Counted on the host."""
    dtype = input.dtype if is_floating_point(input) else _dtype.float32
    values = input.to(dtype)._numpy().ravel()
    lo, hi = float(min), float(max)
    if lo == hi and values.size:
        lo, hi = float(values.min()), float(values.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (_np.isfinite(lo) and _np.isfinite(hi)):
        raise RuntimeError(f"torch.histc: range of [{lo}, {hi}] is not finite")
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    from ._ops_creation import linspace
    edges = linspace(lo, hi, bins + 1, dtype=dtype)._numpy()
    first, last = edges[0], edges[-1]
    inside = values[(values >= first) & (values <= last)]
    position = ((inside - first) * edges.dtype.type(bins) / (last - first)).astype(_np.int64)
    position[position == bins] = bins - 1
    counts = _np.bincount(position, minlength=bins)
    return tensor(counts.astype(dtype.numpy), dtype=dtype, device=_local_device(input))


def histogram(input, bins=100, *, range=None, weight=None, density=False):
    """torch.histogram: (hist, bin_edges) of a floating input, `bins` equal bins over `range`
    (the data's range by default; half a unit either side of a single value) or the given
    increasing edges (a 1-d tensor); weight sums each value's weight instead of counting it;
    density normalizes to unit area. The equal bins' edges are linspace's in input's dtype and
    each value goes to the last edge at or below it (the last bin includes its right edge);
    values outside are ignored. Counted on the host, both results in input's dtype."""
    if not is_floating_point(input):
        raise RuntimeError(f"histogram: expected a floating input, got {input.dtype.name}")
    values = input._numpy().ravel()
    if isinstance(bins, Tensor):
        edges = bins._numpy().astype(values.dtype)
    else:
        if range is not None:
            lo, hi = float(range[0]), float(range[1])
        else:
            lo, hi = (float(values.min()), float(values.max())) if values.size else (0.0, 0.0)
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        from ._ops_creation import linspace
        edges = linspace(lo, hi, int(bins) + 1, dtype=input.dtype)._numpy()
    weights = None if weight is None else weight._numpy().astype(_np.float64).ravel()
    keep = (values >= edges[0]) & (values <= edges[-1])
    position = _np.minimum(_np.searchsorted(edges, values[keep], side="right") - 1, len(edges) - 2)
    counts = _np.bincount(position, weights=None if weights is None else weights[keep], minlength=len(edges) - 1)
    if density:
        counts = counts / (counts.sum() * _np.diff(edges.astype(_np.float64)))
    made = {"dtype": input.dtype, "device": _local_device(input)}
    return _returns("histogram", ("hist", "bin_edges"))(tensor(counts, **made), tensor(edges, **made))


def histogramdd(input, bins=10, *, range=None, weight=None, density=False):
    """torch.histogramdd: (hist, bin_edges) of the points input [..., D] in D dims: bins an int
    or one per dim, or a list of D edge tensors; range a flat (lo0, hi0, lo1, hi1, ...); weight
    and density as histogram's. Counted on the host (NumPy's rules), in input's dtype."""
    if not is_floating_point(input):
        raise RuntimeError(f"histogramdd: expected a floating input, got {input.dtype.name}")
    points = input._numpy().astype(_np.float64)
    points = points.reshape(-1, points.shape[-1])
    if isinstance(bins, (list, tuple)) and bins and isinstance(bins[0], Tensor):
        bins = [b._numpy().astype(_np.float64) for b in bins]
    elif not isinstance(bins, int):
        bins = [int(b) for b in bins]
    ranges = None if range is None else [(float(range[2 * d]), float(range[2 * d + 1]))
                                         for d in builtins.range(points.shape[1])]
    weights = None if weight is None else weight._numpy().astype(_np.float64).ravel()
    counts, edges = _np.histogramdd(points, bins=bins, range=ranges, weights=weights, density=bool(density))
    made = {"dtype": input.dtype, "device": _local_device(input)}
    return _returns("histogramdd", ("hist", "bin_edges"))(tensor(counts, **made), [tensor(e, **made) for e in edges])

def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """torch.gradient: the derivative of input's samples along each of `dim` (every dim by
    default), one tensor per dim, as torch's: central differences inside, one-sided ones of
    edge_order 1 or 2 at the ends. spacing: a number (the step of every dim), one number per
    dim, or one 1-d tensor of coordinates per dim (unevenly spaced; edge_order 1 only)."""
    dims = list(builtins.range(input.ndim)) if dim is None else [dim] if isinstance(dim, int) else list(dim)
    dims = [d % input.ndim for d in dims]
    steps = list(spacing) if isinstance(spacing, (list, tuple)) else [spacing] * len(dims)
    if len(steps) != len(dims):
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar or its length to match "
                           f"the number of dimensions given ({len(dims)}), but got {len(steps)}")
    if edge_order not in (1, 2):
        raise RuntimeError(f"torch.gradient only supports edge_order=1 and edge_order=2, got {edge_order}")
    from ._ops_shape import cat
    out = []
    for d, h in zip(dims, steps):
        n = input.shape[d]
        if n < edge_order + 1:
            raise RuntimeError(f"torch.gradient expected each dimension size to be at least edge_order+1, "
                               f"got {n} along dim {d}")

        def f(start, stop=None):  # input[start:stop] along d
            start = start + n if start < 0 else start
            stop = n if stop is None else stop + n if stop < 0 else stop
            return input.narrow(d, start, stop - start)
        if isinstance(h, Tensor):  # coordinates: numpy's second-order weights for uneven steps
            if edge_order != 1:
                raise NotImplementedError("gradient: edge_order=2 with coordinates is not supported by meshflow")
            shape = [1] * input.ndim
            shape[d] = n - 1
            dx = (h[1:] - h[:-1]).reshape(shape)
            d1, d2 = dx.narrow(d, 0, n - 2), dx.narrow(d, 1, n - 2)
            center = -d2 / (d1 * (d1 + d2)) * f(0, -2) + (d2 - d1) / (d1 * d2) * f(1, -1) + \
                d1 / (d2 * (d1 + d2)) * f(2)
            first, last = (f(1, 2) - f(0, 1)) / dx.narrow(d, 0, 1), (f(-1) - f(-2, -1)) / dx.narrow(d, n - 2, 1)
        else:
            center = (f(2) - f(0, -2)) / h / 2
            if edge_order == 1:
                first, last = (f(1, 2) - f(0, 1)) / h, (f(-1) - f(-2, -1)) / h
            else:
                first = (-1.5 * f(0, 1) + 2 * f(1, 2) - 0.5 * f(2, 3)) / h
                last = (0.5 * f(-3, -2) - 2 * f(-2, -1) + 1.5 * f(-1)) / h
        out.append(cat([first, center, last], d))
    return tuple(out)

class Generator:
    """A random generator, as torch.Generator, for the generator= of the random ops (rand,
    randn, randint, randperm, normal, bernoulli, multinomial, Tensor.uniform_/normal_,
    nn.init), the samplers, DataLoader and random_split. It is the process's Philox generator
    with its own (seed, offset): its draws do not move the process's generator, and after
    manual_seed(s) they are those of mf.manual_seed(s) (the values differ from torch's).
    Permutations of the data utilities advance the offset by one; while they alone draw from
    it, they are torch's (creation.h's torch_cpu_permutation). mf.default_generator is the
    process's generator itself, as torch's."""

    def __init__(self, device="cpu"):
        self.device = device
        self._own = [67280421310721, 0]  # (seed, offset); None: the process's (default_generator)
        # How many 32-bit values torch's generator of this seed would have drawn: counted while
        # only the data utilities' permutations draw (None once anything else has).
        self._torch_drawn = 0

    @property
    def _seed(self):
        return _C.generator_state()[0] if self._own is None else self._own[0]

    @_seed.setter
    def _seed(self, value):
        self._set(int(value) % (1 << 64), self._offset)

    @property
    def _offset(self):
        return _C.generator_state()[1] if self._own is None else self._own[1]

    @_offset.setter
    def _offset(self, value):
        self._set(self._seed, int(value))

    def _set(self, seed, offset):
        if self._own is None:
            _C.set_generator_state(seed, offset)
        else:
            self._own = [seed, offset]

    def manual_seed(self, seed):
        self._seed, self._offset = int(seed) % (1 << 64), 0
        self._torch_drawn = 0 if self._own is not None else None
        return self

    def seed(self):
        import os
        self.manual_seed(int.from_bytes(os.urandom(8), "little") >> 1)
        return self._seed

    def initial_seed(self):
        return self._seed

    def get_state(self):
        """Its state as torch's: a uint8 tensor (mf.get_rng_state's form)."""
        from ._ops_creation import rng_state_tensor
        return rng_state_tensor(self._seed, self._offset)

    def set_state(self, state):
        from ._ops_creation import rng_state_values
        self._seed, self._offset = rng_state_values(state, "Generator.set_state")
        self._torch_drawn = None
        return self

    def _next_call(self, numel):
        """The (seed, offset) attributes of a random op drawing numel values (the seed as the
        op's int64), advancing the offset past them."""
        seed = self._seed - (1 << 64) if self._seed >= 1 << 63 else self._seed
        call = (seed, self._offset)
        self._offset += int(numel)
        self._torch_drawn = None
        return call

    def _rng(self):
        """A NumPy generator for this generator's next draw of the data utilities (not torch's)."""
        self._offset += 1
        self._torch_drawn = None
        return _np.random.default_rng([self._seed % (1 << 63), self._offset])

    def _torch_permutation(self, n):
        """torch's randperm(n, generator=self), as a list, while only permutations drew from
        this generator; else None."""
        if self._own is None or self._torch_drawn is None:
            return None
        order = _C.torch_cpu_permutation(n, self._seed, self._torch_drawn)
        self._torch_drawn += max(n - 1, 0)
        self._offset += 1
        return order

    def _torch_draw(self, count):
        """Counts `count` values torch draws where meshflow draws none (DataLoader's base seed)."""
        if self._torch_drawn is not None:
            self._torch_drawn += count


default_generator = Generator()
default_generator._own = None  # torch.default_generator: the process's generator (mf.manual_seed's)

__all__ += ["concat", "concatenate", "matrix_power", "quantile", "nanquantile", "histc", "histogram", "histogramdd",
            "gradient", "Generator", "default_generator"]
Tensor.matrix_power = matrix_power
Tensor.quantile = quantile
Tensor.nanquantile = nanquantile
Tensor.histc = histc
Tensor.histogram = histogram
Tensor.mT = property(lambda self: self.transpose(-2, -1))
Tensor.mH = property(lambda self: self.transpose(-2, -1).conj())  # conj: itself for real tensors
