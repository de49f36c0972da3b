"""Indexing with tensors, as PyTorch: advanced indexing in x[...] (integer lists and tensors,
boolean masks, mixed with ints, slices, None and '...'), the functional index_put (what
x[idx] = v is built on), index_select, gather, take, take_along_dim, scatter, scatter_add,
index_add, index_copy, index_fill, masked_select, nonzero / argwhere, where(condition) and
one_hot.

Composed of the C++ ops flat_index (the checked row-major positions of the indexed elements:
torch's "index 5 is out of bounds for dimension 0 with size 3"), index_put (writes or adds
values at positions, in order), embedding and gather (meshflow/ops/index.cc, nn.cc) and of
fn::advanced_index (x[...] with index tensors, ops/functional.h, which Tensor.__getitem__
calls in C for index tensors beside basic items), so that every device and layout runs them
and gradients flow through their deterministic backwards.

Data-dependent shapes (boolean masks, nonzero, masked_select) read the mask's values on the
host: a global mask is gathered to every rank (gather_full), and the positions made from it
are a broadcast tensor on the mask's placement.
"""
import builtins
import functools
import numbers
import operator
import warnings

import numpy as _np

from . import _C, _dtype
from ._ops_creation import arange, full
from ._ops_shape import _getitem as _basic_getitem
from ._ops_shape import _exact_basic, _slice_attrs
from ._ops_shape import _normalize_dim, broadcast_to, permute, reshape
from ._tensor import Tensor, apply, tensor

__all__ = ["index_put", "index_select", "gather", "take", "take_along_dim", "scatter", "scatter_add", "index_add",
           "index_copy", "index_fill", "masked_select", "nonzero", "argwhere", "one_hot", "where"]


# ---------------------------------------------------------------------------------------------
# Where tensors live: index tensors made here go where the indexed tensor is.

def _broadcast_sbp(x):
    from .sbp import broadcast
    return [broadcast] * len(x.sbp)


def _placed_like(x, t, op="index"):
    """Tensor t where x is: on x's device, or on x's placement (t's layout kept when it is
    there already, else broadcast; a local t as op `op` takes it, by implicit replication,
    checked under MESHFLOW_CHECK_CONSISTENCY). A global t beside a local x stays global: the op
    takes x as broadcast on t's placement, as every op takes a local beside a global (so a
    global source keeps its gradient, and the result is global, as DTensor's implicit
    replication)."""
    if x.is_global and t.is_global and t.placement == x.placement:
        return t
    if x.is_global:
        if t.is_global:
            return t.to_global(placement=x.placement, sbp=_broadcast_sbp(x))
        return Tensor(_C.replicated_beside(op, t._impl, x._impl.placement, _broadcast_sbp(x)))
    if t.is_global:
        return t  # the op takes the local x beside it as broadcast (implicit replication)
    return t.to(x.device)


def _ints_like(x, array):
    """An int64 tensor of a NumPy array, where x is."""
    array = _np.ascontiguousarray(array, dtype=_np.int64)
    if x.is_global:
        return tensor(array, dtype="int64", placement=x.placement, sbp=_broadcast_sbp(x))
    return tensor(array, dtype="int64", device=x.device)


def _arange_like(x, n):
    if x.is_global:
        return arange(n, placement=x.placement, sbp=_broadcast_sbp(x))
    return arange(n, device=x.device)


def _is_bool(t):
    return str(t.dtype).split(".")[-1] == "bool"


def _carrier(t):
    """The dtype that the picking and writing ops move t's values in, exactly, when they do
    not take t's own: int32 for bool, float32 for bfloat16; else None."""
    return {"bool": "int32", "bfloat16": "float32"}.get(str(t.dtype).split(".")[-1])


def _is_integer(t):
    return str(t.dtype).split(".")[-1] in ("int32", "int64")


def _host(t):
    """t's full value as a NumPy array (a global tensor is gathered)."""
    return t._numpy()


# ---------------------------------------------------------------------------------------------
# nonzero, where(condition), masked_select

def nonzero(input, *, as_tuple=False):
    """The indices of input's nonzero elements, int64 [count, ndim] in row-major order, or with
    as_tuple a tuple of ndim [count] tensors (what x[...] takes). The count depends on the
    values, so they are read on the host (a global input is gathered to every rank and the
    result is broadcast on its placement)."""
    found = _np.argwhere(_host(input) != 0)
    if not as_tuple:
        return _ints_like(input, found.reshape(len(found), input.ndim))  # [1 or 0, 0] for a 0-d input
    if input.ndim == 0:
        return (_ints_like(input, _np.zeros(len(found), dtype=_np.int64)),)
    return tuple(_ints_like(input, found[:, d]) for d in range(input.ndim))


def argwhere(input):
    """nonzero(input): the indices of the nonzero elements, [count, ndim]."""
    return nonzero(input)


def where(condition, input=None, other=None):
    """where(condition, input, other): input where condition is nonzero, else other (see
    _ops_elementwise.where); where(condition) alone is nonzero(condition, as_tuple=True)."""
    from . import _ops_elementwise
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    if input is None or other is None:
        raise TypeError("where: give both input and other, or neither (where(condition) is nonzero)")
    return _ops_elementwise.where(condition, input, other)


# where(condition, x, y) of a bool Tensor and two Tensors of one dtype in C (_C.tensor_method's
# "where" form): one call, no promotion to make.
where = functools.update_wrapper(_C.tensor_method("where", "where", None, where), where)
where.remake = functools.partial(_C.tensor_method, "where", "where", None)  # _numpy_names remakes it (out=)


def masked_select(input, mask):
    """The elements of input where mask is nonzero, as a 1-d tensor in row-major order; input
    and mask broadcast together. The mask is read on the host (gathered when global);
    gradients flow to input through gather."""
    shape = list(_np.broadcast_shapes(tuple(input.shape), tuple(mask.shape)))
    where_set = _np.flatnonzero(_np.broadcast_to(_host(mask) != 0, shape))
    flat = reshape(broadcast_to(input, shape), [-1])
    return _C.grad_fn_as(gather(flat, 0, _placed_like(flat, _ints_like(flat, where_set))), "MaskedSelectBackward0",
                         input)


# ---------------------------------------------------------------------------------------------
# Advanced indexing

def _as_index_item(x, item):
    """An item of an index as ("basic", item) for ints, slices, None and '...', ("mask",
    bool array or tensor), or ("tensor", int tensor)."""
    if item is None or item is Ellipsis or isinstance(item, slice):
        return "basic", item
    if isinstance(item, bool):
        # 0-d masks: a new dim indexed by [0] (True) or [] (False), as torch (x[True] alone
        # is x[None]).
        return ("true" if item else "false"), None
    if isinstance(item, numbers.Integral):
        return "basic", operator.index(item)
    if isinstance(item, Tensor):
        if item.dtype == _dtype.uint8:
            # torch still takes a uint8 index as a mask (masks predate bool), with this warning
            warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
                          "instead.", UserWarning, stacklevel=4)
            item = item.bool()
        if _is_bool(item):
            return ("true" if item.item() else "false", None) if item.ndim == 0 else ("mask", item)
        if not _is_integer(item):
            raise IndexError(f"tensors used as indices must be int32, int64 or bool tensors, got {item.dtype}")
        if item.ndim == 0:
            return "basic", int(item.item())  # a 0-d index selects, as an int (torch's rule)
        return "tensor", item
    if isinstance(item, (list, tuple, range, _np.ndarray)):  # a range as its list, as torch's
        array = _np.asarray(item)
        if array.dtype == bool:
            return "mask", array
        if array.size == 0:
            array = array.astype(_np.int64)
        if array.dtype.kind not in "iu":
            raise IndexError(f"index lists must hold ints or bools, got {array.dtype}")
        return "tensor", _ints_like(x, array)
    raise TypeError(f"meshflow tensors are indexed by ints, slices, '...', None, integer or boolean lists, "
                    f"ranges and tensors; got {type(item).__name__}")


def _list_as_tuple(index):
    """Whether a list index stands for a tuple of indices, as torch's (and old NumPy's) rule:
    a list shorter than 32 holding a tensor, a sequence, a slice, None or '...'
    (x[[rows, cols]] is x[rows, cols]; x[[0, 2]] stays a list of ints)."""
    return isinstance(index, list) and len(index) < 32 and any(
        isinstance(i, (Tensor, list, tuple, slice, _np.ndarray)) or i is None or i is Ellipsis for i in index)


def _parse_index(x, index):
    """The index as a list of items, each ("basic", int | slice | None) or ("tensor", int
    tensor) for one dim of x (None for none), masks replaced by their nonzero() tensors and
    '...' by full slices; and whether any item is advanced."""
    if _list_as_tuple(index):
        index = tuple(index)
    items = [_as_index_item(x, i) for i in (index if isinstance(index, tuple) else (index,))]
    ellipses = sum(1 for kind, i in items if kind == "basic" and i is Ellipsis)
    if ellipses > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(i.ndim if kind == "mask" else 0 if i is None or i is Ellipsis else 1 for kind, i in items)
    advanced = any(kind in ("mask", "tensor", "false") for kind, _ in items)
    items = [("new", _ints_like(x, _np.zeros(0 if kind == "false" else 1, _np.int64))) if kind == "false" or (
        kind == "true" and advanced) else ("basic", None) if kind == "true" else (kind, i) for kind, i in items]
    if consumed > x.ndim:
        raise IndexError(f"too many indices for a tensor of {x.ndim} dims: {consumed}")
    out, dim = [], 0
    for kind, item in items:
        if kind == "basic" and item is Ellipsis:
            for _ in range(x.ndim - consumed):
                out.append(("basic", slice(None)))
            dim += x.ndim - consumed
        elif kind == "mask":
            shape = tuple(item.shape)
            if shape != tuple(x.shape[dim:dim + len(shape)]):
                for k, n in enumerate(shape):
                    if n != x.shape[dim + k]:
                        raise IndexError(f"The shape of the mask {list(shape)} at index {k} does not match the "
                                         f"shape of the indexed tensor {list(x.shape)} at index {dim + k}")
            coords = _np.nonzero(_np.asarray(_host(item) if isinstance(item, Tensor) else item))
            if len(shape) == 0:
                raise IndexError("meshflow does not index with 0-d boolean masks")
            out += [("tensor", _ints_like(x, c)) for c in coords]
            dim += len(shape)
        else:
            out.append((kind, item))
            dim += 0 if item is None or kind == "new" else 1
    return out, any(kind in ("tensor", "new") for kind, _ in out)


def _advanced(x, items):
    """x indexed by parsed items of which some are int tensors (C++'s advanced_index decides:
    the basic items first, then the tensors, broadcast together, replacing their dims where
    adjacent, else first). A "new" item (x[False]) indexes a new dim of size 1, made first."""
    if any(kind == "new" for kind, _ in items):
        x = _basic_getitem(x, tuple(None if kind == "new" or item is None else slice(None) for kind, item in items))
        items = [("tensor", item) if kind == "new" else ("basic", slice(None)) if item is None else (kind, item)
                 for kind, item in items]
    # C++ takes exact ints in basic items (a NumPy int bound, x[perm, a:b], is one here).
    return _C.advanced_index(x, tuple(_placed_like(x, item) if kind == "tensor" else _exact_basic(item)[0]
                                      for kind, item in items))


_BASIC_ITEM_TYPES = (int, slice, type(None), type(Ellipsis))  # exact types: not bool, which is a mask


def _plainly_basic(index):
    """Whether `index` is basic indexing of exact ints, slices, None and '...' (the common
    cases, told without ABC checks; NumPy ints and the like are basic too, found the long way)."""
    if type(index) in _BASIC_ITEM_TYPES:
        return True
    if type(index) is not tuple:
        return False
    for item in index:
        if type(item) not in _BASIC_ITEM_TYPES:
            return False
    return True


def getitem(x, index):
    """x[index], PyTorch's and NumPy's indexing. Basic items (ints, slices with steps >= 1,
    '...', None) select a view-like part; advanced items (integer lists and int32/int64
    tensors of any shape, negative from the end, and boolean masks, which stand for their
    nonzero() indices) pick elements: their indices broadcast together, and the broadcast
    dims replace the indexed dims where the advanced items are adjacent, else come first.
    An int or a 0-d tensor next to advanced items is a basic selection (torch's rule).
    Gradients flow through the picks (embedding's deterministic backward). A boolean mask is
    read on the host (a global one is gathered to every rank)."""
    out = _C.basic_index(x, index)  # a key of exact basic items, without parsing here
    if out is not None:
        return out
    items, advanced = _parse_index(x, index)
    if not advanced:
        return _basic_getitem(x, tuple(item for _, item in items))
    out = _advanced(x.to(_carrier(x)), items).to(x.dtype) if _carrier(x) else _advanced(x, items)
    # torch's last step is an index (a bool or bfloat16 tensor is picked in int32 or float32)
    return _C.grad_fn_as(out, "IndexBackward0", x) if any(isinstance(k, (Tensor, list)) for k in _keys(index)) else out


def _keys(index):
    return index if isinstance(index, tuple) else (index,)


# ---------------------------------------------------------------------------------------------
# index_put

def index_put(x, indices, values, accumulate=False):
    """A new tensor: x with `values` written at x[indices] (added there with accumulate), out
    of place; its in-place forms (x[indices] = values, index_put_) run the same call over
    x's memory (write_call).

    indices: anything x[...] takes (getitem): ints, slices with steps, None, '...', integer
    lists and tensors (negative from the end), boolean masks, mixed, or a tuple of those
    (torch's tuple of index tensors among them). values: a Python number or a tensor that
    broadcasts to the shape of x[indices]; it is cast to x's dtype. Where indices name an
    element more than once, the last value in row-major order of x[indices] stays (torch's
    CPU result; torch leaves it undefined), or with accumulate all are added, in that order
    (deterministic). Differentiable in x (its gradient: zero at the written elements, or
    dy with accumulate) and in values (dy at their elements, summed over broadcast dims;
    as torch's, also for a value that a repeated index overwrites).
    """
    call = write_call(x, indices, values, accumulate)
    if call is None:  # a bool (bfloat16) tensor is written in int32 (float32); bool accumulate: or
        if isinstance(values, Tensor):
            values = values.to(x.dtype).to(_carrier(x))  # rounded as x's dtype would (nonzero is True)
        elif isinstance(values, bool) or (_is_bool(x) and isinstance(values, numbers.Number)):
            values = int(bool(values))
        return index_put(x.to(_carrier(x)), indices, values, accumulate).to(x.dtype)
    op, inputs, attrs, _ = call
    return apply(op, inputs, attrs)[0]


def write_call(x, indices, values, accumulate=False):
    """What writing `values` at x[indices] (adding with accumulate) is, as one op call
    (op, inputs, attrs, target) whose output is inputs[target] (x) with those elements
    replaced: fn::write_in_place runs it over x's memory, apply() out of place. Each costs
    what it writes, on every rank only the part its box of x holds: a basic index is
    slice_scatter of the box it selects; integer and boolean indices are index_put at the
    positions of x[indices], made from the indices (never from all of x); a boolean mask of
    x's whole shape with one value is where(). None where index_put would move x's values
    in a carrier dtype (bool, bfloat16: _carrier), which index_put() writes out of place."""
    if not accumulate and _basic_items(indices):
        return _slice_write(x, indices, values)
    if accumulate and _carrier(x):
        return None
    whole = _whole_mask(x, indices, values)
    if whole is not None:
        from ._ops_elementwise import where as _where
        cond, value = whole
        if accumulate:
            return "add", [x, _where(cond, value, _values_like(x, 0, []))], {}, 0
        return "where", [cond, value, x], {}, 2
    items, advanced = _parse_index(x, indices)
    if not advanced and not accumulate:
        return _slice_write(x, tuple(item for _, item in items), values)
    if _carrier(x):
        return None
    positions = _positions(x, items)
    if isinstance(values, Tensor):
        values = _placed_like(positions, values)
        if values.dtype != x.dtype:
            values = values.to(x.dtype)
        values = _broadcast_values(values, list(positions.shape))
    elif isinstance(values, numbers.Number):
        values = _values_like(x, values, list(positions.shape))
    else:
        raise TypeError(f"index_put: values must be a meshflow.Tensor or a number, got {type(values).__name__}")
    return "index_put", [x, positions, values], {"accumulate": bool(accumulate)}, 0


def _basic_items(index):
    """Whether `index` is basic indexing (ints, slices, None, '...')."""
    if _plainly_basic(index):
        return True
    items = index if isinstance(index, tuple) else (index,)
    return all(i is None or i is Ellipsis or isinstance(i, slice) or
               (isinstance(i, numbers.Integral) and not isinstance(i, bool)) for i in items)


def _broadcast_values(values, target):
    """values (a tensor) broadcast to `target`, x[indices]'s shape: leading dims beyond it
    must be 1, as torch allows."""
    lead = builtins.max(values.ndim - len(target), 0)
    trailing = target[len(target) - (values.ndim - lead):]
    if any(n != 1 for n in values.shape[:lead]) or any(
            n not in (1, m) for n, m in zip(values.shape[lead:], trailing)):
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(values.shape)} cannot be broadcast to "
                           f"indexing result of shape {target}")
    if list(values.shape) == target:
        return values
    if values.ndim > len(target):
        values = reshape(values, list(values.shape[lead:]))
    return broadcast_to(values, target)


def _slice_write(x, index, values):
    """slice_scatter's call writing values (a number, or a tensor broadcasting to x[index])
    in the box basic indexing x[index] selects: values as a tensor of x's dtype with one dim
    per dim of x, 1 where the index is an integer or values broadcast (not expanded: the
    kernel reads them with stride 0)."""
    attrs, shape, _ = _slice_attrs(x, index)
    attrs.pop("drop_dims", None)
    if isinstance(values, numbers.Number):
        return "slice_scatter", [x, _values_like(x, values, [1] * x.ndim)], attrs, 0
    if not isinstance(values, Tensor):
        raise TypeError(f"index_put: values must be a meshflow.Tensor or a number, got {type(values).__name__}")
    per_dim = _C.slice_values_shape(list(x.shape), _exact_basic(index), list(values.shape))
    if per_dim is None:
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(values.shape)} cannot be broadcast to "
                           f"indexing result of shape {list(shape)}")
    values = _values_like(x, values, per_dim)
    if list(values.shape) != per_dim:
        values = reshape(values, per_dim)
    return "slice_scatter", [x, values], attrs, 0


def _positions(x, items):
    """The flat row-major positions in x of the elements x[items] picks (parsed items, as
    getitem parses them), in x[items]'s shape: flat_index of each dim's coordinates (the
    index tensors, an arange per slice, each int), so they cost what x[items] holds."""
    adv = [item for kind, item in items if kind in ("tensor", "new")]
    lead = list(_np.broadcast_shapes(*[tuple(t.shape) for t in adv])) if adv else []
    nb = len(lead)
    coords, rest, at, r, dim = [], [], [], 0, 0  # coords: (x dim, coordinate, size); at: the advanced dims in x[items]
    for kind, item in items:
        if kind in ("tensor", "new"):
            at.append(r)
            r += 1
            if kind == "tensor":
                coords.append((dim, item, x.shape[dim]))
                dim += 1
            else:
                coords.append((x.ndim, item, 1))  # a new dim of size 1: adds nothing to positions
        elif item is None:
            rest.append((None, 1))
            r += 1
        elif isinstance(item, slice):
            if item.step is not None and operator.index(item.step) <= 0:
                raise ValueError(f"slice step must be greater than zero, got {item.step} in dim {dim}")
            rest.append((dim, _np.arange(*item.indices(x.shape[dim]))))
            r += 1
            dim += 1
        else:
            size = x.shape[dim]
            if not -size <= item < size:
                raise IndexError(f"index {item} is out of range for dim {dim} of size {size}")
            coords.append((dim, _np.int64(item % size), size))
            dim += 1
    rest += [(d, _np.arange(x.shape[d])) for d in range(dim, x.ndim)]
    n = nb + len(rest)
    for j, (d, values) in enumerate(rest):
        if d is not None:
            shape = [1] * n
            shape[nb + j] = len(values)
            coords.append((d, values.reshape(shape), x.shape[d]))
    coords.sort(key=lambda c: c[0])
    if not coords:
        coords.append((0, _np.zeros([1] * n, _np.int64), 1))
    tensors = []
    for d, c, _ in coords:
        if isinstance(c, Tensor):
            tensors.append(reshape(_placed_like(x, c), [1] * (nb - c.ndim) + list(c.shape) + [1] * len(rest)))
        else:
            tensors.append(_ints_like(x, _np.reshape(c, [1] * n) if _np.ndim(c) == 0 else c))
    positions = apply("flat_index", tensors, {"sizes": [s for _, _, s in coords],
                                              "dims": [builtins.min(d, builtins.max(x.ndim - 1, 0)) for d, _, _ in coords],
                                              "wrap": True})[0]
    if not at or at != list(range(at[0], at[0] + len(at))) or at[0] == 0:
        return positions  # separated advanced indices: their dims first, as NumPy and torch
    order = list(range(nb, nb + at[0])) + list(range(nb)) + list(range(nb + at[0], n))
    return permute(positions, order)


def _whole_mask(x, indices, values):
    """For index_put(x, mask, v) with a boolean mask of x's shape and a single value: the
    mask as a where() condition where x is, and v as a 0-d tensor of x's dtype there; else
    None."""
    index = indices[0] if isinstance(indices, tuple) and len(indices) == 1 else indices
    if isinstance(index, Tensor):
        if not _is_bool(index) or tuple(index.shape) != tuple(x.shape):
            return None
        from ._ops_elementwise import mask_in_layout_of
        cond = mask_in_layout_of(_placed_like(x, index), x)
    elif isinstance(index, (list, _np.ndarray)):
        array = _np.asarray(index)
        if array.dtype != bool or array.shape != tuple(x.shape):
            return None
        cond = tensor(array, dtype="bool", placement=x.placement, sbp=_broadcast_sbp(x)) if x.is_global \
            else tensor(array, dtype="bool", device=x.device)
    else:
        return None
    if isinstance(values, Tensor):
        if values.numel() != 1:
            return None
        return cond, _values_like(x, reshape(values, []), [])
    if not isinstance(values, numbers.Number):
        return None
    return cond, _values_like(x, values, [])


# ---------------------------------------------------------------------------------------------
# index_select, gather, take_along_dim

def _check_index_tensor(op, index):
    if not isinstance(index, Tensor):
        raise TypeError(f"{op}: index must be a meshflow.Tensor, got {type(index).__name__}")
    if not _is_integer(index):
        raise TypeError(f"{op}: index must be an int32 or int64 tensor, got {index.dtype}")


def index_select(input, dim, index):
    """The slices of input at `index` (a 1-d or 0-d int32/int64 tensor) along `dim`:
    the result has len(index) there. Indices must lie in [0, size) (torch's rule: no negative
    ones). Its gradient adds dy's slices back in index order (embedding_backward)."""
    _check_index_tensor("index_select", index)
    if index.ndim > 1:
        raise IndexError(f"index_select: index should have 1 dimension, got {index.ndim}")
    dim = _normalize_dim("index_select", dim, builtins.max(input.ndim, 1))
    index = reshape(index, [-1])
    if input.ndim == 0:
        if index.numel() != 1:
            raise IndexError(f"index_select(): Index to scalar can have only 1 value, got {index.numel()} value(s)")
        checked = apply("flat_index", [_placed_like(input, index, "index_select")], {"sizes": [1], "dims": [0]})[0]
        return reshape(getitem(reshape(input, [1]), checked), [])  # a scalar's pick is a scalar, as torch's
    if _carrier(input):  # a bool or bfloat16 tensor is picked in int32 or float32
        return index_select(input.to(_carrier(input)), dim, index).to(input.dtype)
    checked = apply("flat_index", [_placed_like(input, index, "index_select")],
                    {"sizes": [input.shape[dim]], "dims": [dim]})[0]
    return _C.grad_fn_as(_C.advanced_index(input, (slice(None),) * dim + (checked,)), "IndexSelectBackward0", input)


def _one_element_as_1d(input, t):
    """A 0-d index or src of a 1-d input as 1-d, as torch's gather and scatter take it (their
    rule compares dims as at least 1: `zeros(10).scatter_(0, tensor(y), value=1)`, the
    tutorials' one-hot)."""
    return reshape(t, [1]) if t.ndim == 0 and input.ndim == 1 else t


def gather(input, dim, index):
    """torch.gather: out[..., j, ...] = input[..., index[..., j, ...], ...] along `dim`, for an
    int32/int64 `index` of input's number of dims, no larger than input off `dim`."""
    _check_index_tensor("gather", index)
    dim = _normalize_dim("gather", dim, builtins.max(input.ndim, 1))
    if index.ndim == 0 and input.ndim == 1:  # the result has index's shape, as torch's
        return _C.grad_fn_as(reshape(gather(input, dim, _one_element_as_1d(input, index)), []), "GatherBackward0", input)
    if index.ndim != input.ndim:
        raise RuntimeError(f"gather: index has {index.ndim} dims and input {input.ndim}; expected the same number")
    if any(index.shape[d] > input.shape[d] for d in range(input.ndim) if d != dim):
        raise RuntimeError(f"gather: index of shape {list(index.shape)} is larger than input of shape "
                           f"{list(input.shape)} off dim {dim}; expected index.size(d) <= input.size(d) for d != {dim}")
    if any(index.shape[d] != input.shape[d] for d in range(input.ndim) if d != dim):
        input = getitem(input, tuple(slice(None) if d == dim else slice(0, index.shape[d]) for d in range(input.ndim)))
    return apply("gather", [input, _placed_like(input, index, "gather")], {"dim": dim})[0]


def take(input, index):
    """torch.take: the elements of the flattened input at `index` (any shape, negative from the
    end); the result has index's shape."""
    _check_index_tensor("take", index)
    return getitem(reshape(input, [-1]), index)


def take_along_dim(input, indices, dim=None):
    """torch.take_along_dim: gather with input and indices broadcast together off `dim`; with
    no dim, the flattened input at the flattened indices."""
    _check_index_tensor("take_along_dim", indices)
    indices = _placed_like(input, indices, "take_along_dim")
    if dim is None:
        return gather(reshape(input, [-1]), 0, reshape(indices, [-1]))
    dim = _normalize_dim("take_along_dim", dim, builtins.max(input.ndim, 1))
    if indices.ndim != input.ndim:
        raise RuntimeError(f"take_along_dim: input and indices should have the same number of dimensions, but got "
                           f"{input.ndim} dimensions for input, and {indices.ndim} dimensions for indices")
    a = list(input.shape)
    b = list(indices.shape)
    a[dim] = b[dim] = 1
    shape = list(_np.broadcast_shapes(tuple(a), tuple(b)))
    sa, sb = list(shape), list(shape)
    sa[dim], sb[dim] = input.shape[dim], indices.shape[dim]
    if list(input.shape) != sa:
        input = broadcast_to(input, sa)
    if list(indices.shape) != sb:
        indices = broadcast_to(indices, sb)
    return apply("gather", [input, indices], {"dim": dim})[0]


# ---------------------------------------------------------------------------------------------
# scatter, scatter_add, index_add, index_copy, index_fill

def _along(x, dim, index, extents):
    """The checked flat positions in x of index's elements along `dim`, the other dims taken
    at 0 .. extents[d] - 1 (index's shape broadcast against those ranges)."""
    ranges = []
    for d in range(x.ndim):
        if d == dim:
            ranges.append(_placed_like(x, index))
        else:
            shape = [1] * x.ndim
            shape[d] = extents[d]
            ranges.append(reshape(_arange_like(x, extents[d]), shape))
    return apply("flat_index", ranges, {"sizes": list(x.shape), "dims": list(range(x.ndim))})[0]


def _values_like(x, values, shape):
    if isinstance(values, numbers.Number):
        if x.is_global:
            return full(shape, values, dtype=x.dtype, placement=x.placement, sbp=_broadcast_sbp(x))
        return full(shape, values, dtype=x.dtype, device=x.device)
    values = _placed_like(x, values, "index_put")
    return values if values.dtype == x.dtype else values.to(x.dtype)


def _scatter(op, input, dim, index, src, accumulate):
    _check_index_tensor(op, index)
    dim = _normalize_dim(op, dim, builtins.max(input.ndim, 1))
    if input.ndim == 0:
        input1 = reshape(input, [1])
        index1 = reshape(index, [-1])
        src1 = src if isinstance(src, numbers.Number) else reshape(src, [-1])
        return reshape(_scatter(op, input1, 0, index1, src1, accumulate), [])
    call = scatter_call(op, input, dim, index, src, accumulate)
    if call is None:
        return input + 0 if input.requires_grad else input
    return apply(*call[:3])[0]


def scatter_call(op, input, dim, index, src, accumulate):
    """scatter's write (accumulate: scatter_add's) into input (at least 1-d), as write_call's
    (op, inputs, attrs, target): index_put at the positions index names along dim, which
    costs what it writes, out of place (apply) or over input's memory (scatter_,
    scatter_add_); None for an empty index, which writes nothing."""
    _check_index_tensor(op, index)
    dim = _normalize_dim(op, dim, input.ndim)
    index, src = _one_element_as_1d(input, index), src if isinstance(src, numbers.Number) else _one_element_as_1d(input, src)
    if index.ndim != input.ndim:
        raise RuntimeError(f"{op}: index has {index.ndim} dims and self {input.ndim}; expected the same number")
    src_shape = list(index.shape) if isinstance(src, numbers.Number) else list(src.shape)
    if not isinstance(src, numbers.Number) and src.ndim != input.ndim:
        raise RuntimeError(f"{op}: src has {src.ndim} dims and self {input.ndim}; expected the same number")
    if any(index.shape[d] > src_shape[d] or (d != dim and index.shape[d] > input.shape[d])
           for d in range(input.ndim)):
        raise RuntimeError(f"{op}: Expected index {list(index.shape)} to be smaller than self {list(input.shape)} "
                           f"apart from dimension {dim} and to be smaller size than src {src_shape}")
    if index.numel() == 0:
        return None
    positions = _along(input, dim, index, list(index.shape))
    values = _values_like(input, src, list(index.shape))
    if list(values.shape) != list(index.shape):
        values = getitem(values, tuple(slice(0, n) for n in index.shape))
    return "index_put", [input, positions, values], {"accumulate": accumulate}, 0


def scatter(input, dim, index, src=None, value=None, *, reduce=None):
    """torch.scatter (out of place): input with input[..., index[i..], ...] = src[i..] along
    `dim` for every element i of index (src: a tensor at least index's size, or a number, also
    as value=). Of repeated indices the last in row-major order stays. torch's older reduce=
    'add' or 'multiply' combines them with input's values instead (scatter_reduce's 'sum' and
    'prod', input included)."""
    if (src is None) == (value is None):
        raise TypeError("scatter: give src (a tensor or a number) or value, not both")
    src = value if src is None else src
    if reduce is None:  # torch's scatter.src and scatter.value
        node = "ScatterBackward0" if isinstance(src, Tensor) else "ScatterBackward1"
        return _C.grad_fn_as(_scatter("scatter", input, dim, index, src, False), node, input, src)
    if reduce not in ("add", "multiply"):
        raise RuntimeError(f"scatter: reduce argument must be either add or multiply, got {reduce!r}")
    from ._ops_surface import scatter_reduce
    _check_index_tensor("scatter", index)
    values = _values_like(input, src, list(index.shape))
    if list(values.shape) != list(index.shape):
        values = getitem(values, tuple(slice(0, n) for n in index.shape))
    return scatter_reduce(input, dim, index, values, "sum" if reduce == "add" else "prod")


def scatter_add(input, dim, index, src):
    """torch.scatter_add (out of place): src's elements added into input at index along `dim`,
    in row-major order of index (deterministic)."""
    return _C.grad_fn_as(_scatter("scatter_add", input, dim, index, src, True), "ScatterAddBackward0", input, src)


def _index_dim(op, input, dim, index, source):
    _check_index_tensor(op, index)
    if index.ndim > 1:
        raise IndexError(f"{op}: index should have 1 dimension, got {index.ndim}")
    dim = _normalize_dim(op, dim, builtins.max(input.ndim, 1))
    index = reshape(index, [-1])
    expected = list(input.shape)
    if input.ndim:
        expected[dim] = index.shape[0]
    if list(source.shape) != expected:
        raise RuntimeError(f"{op}: source has shape {list(source.shape)}; expected {expected} (self's shape with "
                           f"len(index) along dim {dim})")
    if input.ndim == 0:
        return reshape(input, [1]), 0, index, reshape(source, [1])
    return input, dim, index, source


def _index_along(op, input, dim, index, source, accumulate):
    call = index_along_call(op, input, dim, index, source, accumulate)
    out = apply(*call[:3])[0]
    return out if out.ndim == input.ndim else reshape(out, [])


def index_along_call(op, input, dim, index, source, accumulate):
    """index_copy's write (accumulate: index_add's) of source's slices at the slices `index`
    along dim, as write_call's (op, inputs, attrs, target): index_put at their positions, which
    costs what it writes, out of place or over input's memory (index_copy_, index_add_,
    index_fill_; a 0-d input's is written as a 1-d one)."""
    x, d, index, source = _index_dim(op, input, dim, index, source)
    if (accumulate and d == 0 and not x.is_global and x.dtype.is_floating_point and source.numel()
            and index.shape[0] >= x.shape[0]):
        # At least as many rows added as x has (a graph network's messages summed at their
        # nodes): summed per row in index order (embedding_backward, whose gradient picks dy's
        # rows), then added, without the positions of every element, their index_put and its
        # gradient's gather. Fewer rows into a larger x write only those (index_put).
        rows = reshape(_values_like(x, source, list(source.shape)), [index.shape[0], -1])
        sums = apply("embedding_backward", [_placed_like(x, index), rows], {"num_weights": x.shape[0]})[0]
        return "add", [x, reshape(sums, list(x.shape))], {}, 0
    shape = [1] * x.ndim
    shape[d] = index.shape[0]
    extents = list(x.shape)
    extents[d] = index.shape[0]
    positions = _along(x, d, reshape(index, shape), extents)
    return "index_put", [x, positions, _values_like(x, source, extents)], {"accumulate": accumulate}, 0


def index_add(input, dim, index, source, *, alpha=1):
    """torch.index_add (out of place): input with alpha * source's slices added at the
    slices `index` along `dim`, in index order (deterministic)."""
    if alpha != 1:
        source = source * alpha
    return _index_along("index_add", input, dim, index, source, True)


def index_copy(input, dim, index, source):
    """torch.index_copy (out of place): input with its slices `index` along `dim` replaced by
    source's; of repeated indices the last stays."""
    return _index_along("index_copy", input, dim, index, source, False)


def index_fill(input, dim, index, value):
    """torch.index_fill (out of place): input with its slices `index` along `dim` set to
    `value` (a number or a 0-d tensor)."""
    return _index_along("index_fill", input, dim, index, index_fill_source(input, dim, index, value), False)


def index_fill_source(input, dim, index, value):
    """The slices index_fill writes: `value` (a number or a 0-d tensor) in the shape of
    input's slices `index` along dim."""
    _check_index_tensor("index_fill", index)
    d = _normalize_dim("index_fill", dim, builtins.max(input.ndim, 1))
    shape = list(input.shape)
    if input.ndim:
        shape[d] = reshape(index, [-1]).shape[0]
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(f"index_fill only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.ndim} dimension(s)")
        return broadcast_to(_values_like(input, value, []), shape)
    from ._ops_elementwise import _filled  # converted as masked_fill's: checked even into one element
    return broadcast_to(_filled(value, input), shape)


# ---------------------------------------------------------------------------------------------
# one_hot

def one_hot(tensor, num_classes=-1):
    """torch.nn.functional.one_hot: int64 [..., num_classes] with 1 at each class index of an
    int64 `tensor`; num_classes=-1 takes max + 1 (read on the host)."""
    if not isinstance(tensor, Tensor) or str(tensor.dtype).split(".")[-1] != "int64":
        raise RuntimeError("one_hot is only applicable to index tensor of type int64")
    if num_classes == -1:
        values = _host(tensor)
        num_classes = int(values.max()) + 1 if values.size else 0
        if values.size and values.min() < 0:
            raise RuntimeError("Class values must be non-negative.")
    num_classes = operator.index(num_classes)
    checked = apply("flat_index", [tensor], {"sizes": [num_classes], "dims": [0]})[0]
    from ._ops_elementwise import eq
    classes = _arange_like(tensor, num_classes)
    return eq(reshape(checked, list(tensor.shape) + [1]), classes).to("int64")


# ---------------------------------------------------------------------------------------------
# Methods

Tensor.__getitem__ = getitem
Tensor.index_put = lambda self, indices, values, accumulate=False: index_put(self, indices, values, accumulate)
Tensor.index_select = index_select
Tensor.gather = gather
Tensor.take = take
Tensor.take_along_dim = take_along_dim
Tensor.scatter = scatter
Tensor.scatter_add = scatter_add
Tensor.index_add = index_add
Tensor.index_copy = index_copy
Tensor.index_fill = index_fill
Tensor.masked_select = masked_select
Tensor.nonzero = nonzero
Tensor.argwhere = argwhere
