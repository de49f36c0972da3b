"""Shape ops with PyTorch's names and semantics: transpose, permute, x.T, reshape / view,
contiguous, indexing (x[1:3, ..., ::2]; an int index drops its dim, None adds one), narrow,
cat, stack, expand / expand_as / broadcast_to.

They map onto the C++ ops permute, reshape, slice, cat, stack and expand
(meshflow/ops/shape.cc, which also lists their SBP signatures). Every tensor is contiguous,
so view is reshape, contiguous() returns the tensor itself, and expand copies.
"""
import numbers
import operator

from ._tensor import Tensor, apply

__all__ = ["transpose", "permute", "reshape", "narrow", "cat", "stack", "broadcast_to"]


def _normalize_dim(op, dim, ndim):
    """dim in [0, ndim) from dim in [-ndim, ndim), with the C++ ops' wording when out of range."""
    dim = operator.index(dim)
    if not -ndim <= dim < ndim:
        raise ValueError(f"[{op}] dim {dim} is out of range for a tensor of {ndim} dims; "
                         f"expected a dim in [{-ndim}, {ndim})")
    return dim % ndim


def _ints(args):
    """f(2, 3) and f((2, 3)) alike: the list [2, 3]."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = args[0]
    return [operator.index(a) for a in args]


def permute(x, dims):
    """x with its dims reordered: dim i of the result is dim dims[i] of x."""
    return apply("permute", [x], {"dims": _ints([dims])})[0]


def transpose(x, dim0, dim1):
    """x with dims dim0 and dim1 swapped."""
    dims = list(range(x.ndim))
    a, b = _normalize_dim("transpose", dim0, x.ndim), _normalize_dim("transpose", dim1, x.ndim)
    dims[a], dims[b] = b, a
    return permute(x, dims)


def reshape(x, shape):
    """x's elements in row-major order with a new shape; one size may be -1 (inferred)."""
    return apply("reshape", [x], {"shape": _ints([shape])})[0]


def broadcast_to(x, shape):
    """x repeated along its size-1 dims (and new leading dims) to `shape`; -1 keeps a dim."""
    return apply("expand", [x], {"shape": _ints([shape])})[0]


def narrow(x, dim, start, length):
    """x[..., start:start + length, ...] along `dim`; a negative start counts from the end."""
    dim = _normalize_dim("narrow", dim, x.ndim)
    size = x.shape[dim]
    start, length = operator.index(start), operator.index(length)
    if start < 0:
        start += size
    if not (0 <= start <= size and 0 <= length <= size - start):
        raise ValueError(f"[narrow] start {start} and length {length} are out of range for dim {dim} of size "
                         f"{size}; expected 0 <= start <= start + length <= size")
    starts, stops = [0] * x.ndim, list(x.shape)
    starts[dim], stops[dim] = start, start + length
    return apply("slice", [x], {"starts": starts, "stops": stops, "steps": [1] * x.ndim})[0]


def _tensors(op, tensors):
    tensors = list(tensors) if isinstance(tensors, (tuple, list)) else tensors
    if not isinstance(tensors, list) or not all(isinstance(t, Tensor) for t in tensors):
        raise TypeError(f"{op} expects a list or tuple of meshflow.Tensor")
    return tensors


def cat(tensors, dim=0):
    """The tensors joined along `dim`; they must agree in every other dim and in dtype."""
    return apply("cat", _tensors("cat", tensors), {"dim": operator.index(dim)})[0]


def stack(tensors, dim=0):
    """The tensors (all of one shape and dtype) joined along a new dim at `dim`."""
    return apply("stack", _tensors("stack", tensors), {"dim": operator.index(dim)})[0]


def _getitem(x, index):
    """Basic indexing: ints (negative from the end), slices with steps >= 1, one Ellipsis, and
    None (a new dim of size 1, as NumPy's and torch's x[:, None])."""
    index = index if isinstance(index, tuple) else (index,)
    ellipses = sum(i is Ellipsis for i in index)
    if ellipses > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    indexed = len(index) - ellipses - sum(i is None for i in index)  # the dims of x the index names
    if indexed > x.ndim:
        raise IndexError(f"too many indices for a tensor of {x.ndim} dims: {indexed}")
    fill = [slice(None)] * (x.ndim - indexed)
    at = next((i for i, item in enumerate(index) if item is Ellipsis), len(index))
    index = index[:at] + tuple(fill) + index[at + ellipses:]
    # The slice op takes one item per dim of x; the Nones only shape its result.
    starts, stops, steps, drop, shape = [], [], [], [], []
    dims = iter(enumerate(x.shape))
    for item in index:
        if item is None:
            shape.append(1)
            continue
        dim, size = next(dims)
        if isinstance(item, slice):
            if item.step is not None and operator.index(item.step) <= 0:
                raise ValueError(f"slice step must be greater than zero, got {item.step} in dim {dim}")
            start, stop, step = item.indices(size)
            stop = max(stop, start)
            shape.append(len(range(start, stop, step)))
        elif isinstance(item, numbers.Integral) and not isinstance(item, bool):
            item = operator.index(item)
            if not -size <= item < size:
                raise IndexError(f"index {item} is out of range for dim {dim} of size {size}")
            start, stop, step = item % size, item % size + 1, 1
            drop.append(dim)
        else:
            raise TypeError(f"meshflow tensors are indexed by ints, slices, '...' and None; got "
                            f"{type(item).__name__}")
        starts.append(start)
        stops.append(stop)
        steps.append(step)
    attrs = {"starts": starts, "stops": stops, "steps": steps}
    if drop:
        attrs["drop_dims"] = drop
    out = apply("slice", [x], attrs)[0]
    return out if len(shape) == out.ndim else reshape(out, shape)


Tensor.permute = lambda x, *dims: permute(x, _ints(dims))
Tensor.transpose = transpose
Tensor.T = property(lambda x: permute(x, list(reversed(range(x.ndim)))))
Tensor.reshape = lambda x, *shape: reshape(x, _ints(shape))
Tensor.view = Tensor.reshape
Tensor.expand = lambda x, *sizes: broadcast_to(x, _ints(sizes))
Tensor.expand_as = lambda x, other: broadcast_to(x, other.shape)
Tensor.contiguous = lambda x: x
Tensor.narrow = narrow
Tensor.__getitem__ = _getitem
