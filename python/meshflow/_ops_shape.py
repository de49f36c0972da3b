"""Shape ops with PyTorch's names and semantics: transpose, permute, x.T, reshape / view,
contiguous, indexing (x[1:3, ..., ::2]; an int index drops its dim, None adds one), narrow,
cat, stack, expand / expand_as / broadcast_to; flatten, squeeze, unsqueeze, split, chunk,
unbind.

They map onto the C++ ops permute, reshape, slice, cat, stack and expand
(meshflow/ops/shape.cc, which also lists their SBP signatures); the last six are reshapes
and slices, so they work on every device and layout and carry gradients as those do. Every
tensor is contiguous, so view is reshape, contiguous() returns the tensor itself, and
expand copies.
"""
import functools
import numbers
import operator

from . import _C
from ._tensor import Tensor, apply

__all__ = ["transpose", "permute", "reshape", "narrow", "cat", "stack", "broadcast_to", "flatten", "squeeze",
           "unsqueeze", "split", "chunk", "unbind"]


def _normalize_dim(op, dim, ndim):
    """dim in [0, ndim) from dim in [-ndim, ndim), with the C++ ops' wording and error class
    (IndexError, and the ValueError it was) when out of range."""
    dim = operator.index(dim)
    if not -ndim <= dim < ndim:
        raise _C.OpIndexError(f"[{op}] dim {dim} is out of range for a tensor of {ndim} dims; "
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
    """x with dims dim0 and dim1 swapped (a scalar's dims 0 and -1: itself, as torch's)."""
    dims = list(range(x.ndim))
    a, b = _normalize_dim("transpose", dim0, max(x.ndim, 1)), _normalize_dim("transpose", dim1, max(x.ndim, 1))
    if x.ndim == 0:
        return _C.grad_fn_as(permute(x, []), "TransposeBackward0", x)
    dims[a], dims[b] = b, a
    return _C.grad_fn_as(permute(x, dims), "TransposeBackward0", x)


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
        raise _C.OpError(f"[narrow] start {start} and length {length} are out of range for dim {dim} of size "
                         f"{size}; expected 0 <= start <= start + length <= size")
    starts, stops = [0] * x.ndim, list(x.shape)
    starts[dim], stops[dim] = start, start + length
    return apply("slice", [x], {"starts": starts, "stops": stops, "steps": [1] * x.ndim})[0]


def flatten(x, start_dim=0, end_dim=-1):
    """x with dims start_dim .. end_dim merged into one (a 0-d tensor becomes 1-d)."""
    if x.ndim == 0:
        return reshape(x, [1])
    start = _normalize_dim("flatten", start_dim, x.ndim)
    end = _normalize_dim("flatten", end_dim, x.ndim)
    if start > end:
        raise _C.OpError(f"[flatten] start_dim {start_dim} comes after end_dim {end_dim}; expected "
                         "start_dim <= end_dim")
    merged = 1
    for size in x.shape[start:end + 1]:
        merged *= size
    return reshape(x, list(x.shape[:start]) + [merged] + list(x.shape[end + 1:]))


def squeeze(x, dim=None):
    """x without its dims of size 1 (only those of `dim`, an int or a tuple, when given; a
    named dim of another size stays, as in torch)."""
    if dim is None:
        dims = [d for d, size in enumerate(x.shape) if size == 1]
    else:
        named = dim if isinstance(dim, (tuple, list)) else (dim,)
        dims = [_normalize_dim("squeeze", d, max(x.ndim, 1)) for d in named]
    keep = [size for d, size in enumerate(x.shape) if not (d in dims and size == 1)]
    # a view even where no dim goes, as torch's (its own autograd node, never x itself)
    return _C.grad_fn_as(x.reshape(keep), f"SqueezeBackward{int(dim is not None)}", x)


def unsqueeze(x, dim):
    """x with a new dim of size 1 at `dim` (in [-ndim - 1, ndim])."""
    dim = _normalize_dim("unsqueeze", dim, x.ndim + 1)
    return _C.grad_fn_as(reshape(x, list(x.shape[:dim]) + [1] + list(x.shape[dim:])), "UnsqueezeBackward0", x)


def split(x, split_size_or_sections, dim=0):
    """x cut along `dim` into pieces of split_size_or_sections elements (the last may be
    shorter), or of the sizes a list gives (which must add up to the dim's size)."""
    dim = _normalize_dim("split", dim, x.ndim)
    size = x.shape[dim]
    if isinstance(split_size_or_sections, (tuple, list)):
        sizes = [operator.index(n) for n in split_size_or_sections]
        if any(n < 0 for n in sizes) or sum(sizes) != size:
            raise _C.OpError(f"[split] sizes {sizes} do not add up to dim {dim}'s size {size}; expected "
                             "non-negative sizes with that sum")
    else:
        step = operator.index(split_size_or_sections)
        if step <= 0 and size > 0:
            raise _C.OpError(f"[split] split size {step}; expected a positive size")
        sizes = [min(step, size - start) for start in range(0, size, step)] if size else [0]
    return tuple(apply("split", [x], {"dim": dim, "sizes": sizes})) if sizes else ()


def chunk(x, chunks, dim=0):
    """x cut along `dim` into at most `chunks` pieces of ceil(size / chunks) elements, as torch."""
    chunks = operator.index(chunks)
    if chunks <= 0:
        raise _C.OpError(f"[chunk] {chunks} chunks; expected a positive number")
    size = x.shape[_normalize_dim("chunk", dim, x.ndim)]
    if size == 0:  # `chunks` empty pieces, as torch's
        return split(x, [0] * chunks, dim)
    return split(x, -(-size // chunks), dim)


def unbind(x, dim=0):
    """The slices of x along `dim`, each without that dim: split's pieces of one, whose
    backward is one cat of the slices' gradients (an index per slice gave each slice's
    gradient x's whole size, zeros but its own, and backward summed them: quadratic in the
    slices, as a loop over a sequence's steps makes)."""
    dim = _normalize_dim("unbind", dim, x.ndim)
    if x.shape[dim] == 0:
        return ()
    shape = list(x.shape[:dim]) + list(x.shape[dim + 1:])
    return tuple(_C.grad_fn_as(reshape(piece, shape), "UnbindBackward0", x) for piece in split(x, 1, dim))


def repeat(x, *sizes):
    """x tiled: repeated sizes[i] times along dim i (sizes may add leading dims), as torch's
    Tensor.repeat: an expand over interleaved new dims, then a reshape."""
    sizes = _ints(sizes)
    if len(sizes) < x.ndim:
        raise _C.OpError(f"[repeat] {len(sizes)} repeat counts for a tensor of {x.ndim} dims; expected at least "
                         f"{x.ndim}")
    shape = [1] * (len(sizes) - x.ndim) + list(x.shape)
    interleaved, expanded, result = [], [], []
    for r, n in zip(sizes, shape):
        interleaved += [1, n]
        expanded += [r, n]
        result.append(r * n)
    return _C.grad_fn_as(reshape(broadcast_to(reshape(x, interleaved), expanded), result), "RepeatBackward0", x)


def _tensors(op, tensors):
    tensors = list(tensors) if isinstance(tensors, (tuple, list)) else tensors
    if not isinstance(tensors, list) or not all(isinstance(t, Tensor) for t in tensors):
        raise TypeError(f"{op} expects a list or tuple of meshflow.Tensor")
    if len({t._impl.dtype for t in tensors}) > 1:  # torch's promotion (mf.result_type)
        from ._ops_elementwise import cast
        from ._promotion import result_dtype
        dtype = result_dtype(*tensors)
        tensors = [t if t.dtype == dtype else cast(t, dtype) for t in tensors]
    return tensors


def cat(tensors, dim=0):
    """The tensors joined along `dim`; they must agree in every other dim (dtypes promote, as
    torch's). As torch's, 1-d empty tensors are left out beside tensors of other ranks (the
    idiom `out = tensor([]); out = cat([out, x])`)."""
    tensors = _tensors("cat", tensors)
    if any(t.ndim != 1 for t in tensors):
        kept = [t for t in tensors if tuple(t.shape) != (0,)]
        tensors = kept or tensors[:1]
    return apply("cat", tensors, {"dim": operator.index(dim)})[0]


# The commonest call, local Tensors of one dtype and an int dim, in C (_C.cat_function): one
# call to the op, which refuses the dtypes and shapes handled above.
cat = functools.update_wrapper(_C.cat_function(cat), cat)
cat.remake = _C.cat_function  # _numpy_names makes it again over its keyword-taking wrapper


def stack(tensors, dim=0):
    """The tensors (all of one shape; dtypes promote) joined along a new dim at `dim`."""
    return apply("stack", _tensors("stack", tensors), {"dim": operator.index(dim)})[0]


# As cat's: the commonest call in C, one call to the op, which refuses mixed dtypes.
stack = functools.update_wrapper(_C.cat_function(stack, "stack"), stack)
stack.remake = functools.partial(_C.cat_function, op="stack")


def _getitem(x, index):
    """Basic indexing: ints (negative from the end), slices with steps >= 1, one Ellipsis, and
    None (a new dim of size 1, as NumPy's and torch's x[:, None]); C++ decides
    (fn::basic_index), here only items of other types (NumPy ints, __index__ objects) are
    made exact ones."""
    out = _C.basic_index(x, index)
    return out if out is not None else _C.basic_index(x, _exact_basic(index))


def _slice_attrs(x, index):
    """The slice op's attributes (starts, stops, steps, drop_dims) of basic indexing
    x[index], the result's shape (with the Nones' dims), and where the Nones' dims are in it."""
    return _C.basic_index_plan(list(x.shape), _exact_basic(index))


def _exact_basic(index):
    """A basic index with its ints and slice bounds exact ints (operator.index of each)."""
    items = []
    for item in index if isinstance(index, tuple) else (index,):
        if isinstance(item, slice):
            item = slice(*(None if v is None else operator.index(v) for v in (item.start, item.stop, item.step)))
        elif isinstance(item, numbers.Integral) and not isinstance(item, bool):
            item = int(operator.index(item))
        elif item is not None and item is not Ellipsis:
            raise TypeError(f"meshflow tensors are indexed by ints, slices, '...' and None; got "
                            f"{type(item).__name__}")
        items.append(item)
    return tuple(items)


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
Tensor.flatten = flatten
Tensor.squeeze = squeeze
Tensor.unsqueeze = unsqueeze
Tensor.split = split
Tensor.chunk = chunk
Tensor.unbind = unbind
Tensor.repeat = repeat
