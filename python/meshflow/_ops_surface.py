"""torch's names that compose from existing ops (issue 37's second round): nansum, nanmean,
tril_indices, triu_indices, block_diag, cartesian_prod, scatter_reduce, index_reduce, masked_scatter, and the
Tensor methods stride(), index_put_, the in-place shape changes unsqueeze_ squeeze_ t_
transpose_ resize_ resize_as_, and the in-place random fills random_ bernoulli_ exponential_ geometric_ (drawn from
meshflow's generator, so the values differ from torch's; the distributions are torch's).

Each is torch's meaning, composed from differentiable ops: gradients flow where torch's do."""
import builtins
import math

import numpy as _np

from . import _dtype
from ._inplace import (_index_write, _inplace, _live_views, install_inplace_methods, reshape_view_in_place,
                       torch_strides)
from ._ops_creation import rand_like, zeros, zeros_like, ones_like
from ._ops_elementwise import isnan, where, maximum, minimum, floor_divide
from ._ops_index import index_put, scatter_add, _along, _check_index_tensor, _normalize_dim, _one_element_as_1d
from ._ops_random import _uniform_ints, _check_range
from ._ops_shape import cat, reshape, stack, broadcast_to
from ._ops_reduce import sum as _sum
from ._tensor import Tensor, apply, tensor, is_grad_enabled

__all__ = ["nansum", "nanmean", "tril_indices", "triu_indices", "block_diag", "cartesian_prod", "scatter_reduce",
           "index_reduce", "put", "masked_scatter"]


def nansum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum over `dim` treating NaN as zero (torch.nansum)."""
    return _sum(where(isnan(input), 0, input), dim, keepdim, dtype=dtype)


def nanmean(input, dim=None, keepdim=False, *, dtype=None):
    """Mean over `dim` of the elements that are not NaN (torch.nanmean; NaN where all are)."""
    if input.dtype.name not in ("float32", "float64", "bfloat16", "float16"):
        raise RuntimeError(f"nanmean(): expected input to have floating point dtype but got {input.dtype.name}")
    present = ~isnan(input)
    return nansum(input, dim, keepdim, dtype=dtype) / _sum(present, dim, keepdim).to(dtype or input.dtype)


def _triangle_indices(name, row, col, offset, dtype, device, lower):
    if row < 0 or col < 0:
        raise RuntimeError(f"{name}: row and col must be non-negative, got {row} and {col}")
    rows, cols = _np.tril_indices(row, offset, col) if lower else _np.triu_indices(row, offset, col)
    return tensor(_np.stack([rows, cols]).reshape(2, -1), dtype=dtype, device=device)


def tril_indices(row, col, offset=0, *, dtype=_dtype.int64, device=None):
    """The [2, N] row and column indices of the lower triangle (diagonal `offset`) of a row x col
    matrix, row by row (torch.tril_indices)."""
    return _triangle_indices("tril_indices", row, col, offset, dtype, device, True)


def triu_indices(row, col, offset=0, *, dtype=_dtype.int64, device=None):
    """The [2, N] row and column indices of the upper triangle (diagonal `offset`) of a row x col
    matrix, row by row (torch.triu_indices)."""
    return _triangle_indices("triu_indices", row, col, offset, dtype, device, False)


def block_diag(*tensors):
    """The block-diagonal matrix of 0-, 1- and 2-d tensors, in their promoted dtype
    (torch.block_diag; a 1-d tensor is one row)."""
    from ._promotion import result_dtype
    blocks = []
    for i, t in enumerate(tensors):
        if t.ndim > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{t.ndim} dimensions")
        blocks.append(reshape(t, [1, -1] if t.ndim == 1 else [1, 1] if t.ndim == 0 else list(t.shape)))
    if not blocks:
        return zeros(1, 0)
    dtype = result_dtype(*blocks)
    width = builtins.sum(b.shape[1] for b in blocks)
    rows, left = [], 0
    for b in blocks:
        r, c = b.shape
        parts = [zeros(r, left, dtype=dtype, device=b.device), b.to(dtype),
                 zeros(r, width - left - c, dtype=dtype, device=b.device)]
        rows.append(cat([p for p in parts if p.shape[1]], 1) if width else b.to(dtype))
        left += c
    return cat(rows, 0)


def cartesian_prod(*tensors):
    """Every combination of the 1-d tensors' elements, [N, len(tensors)] in row-major order (the
    one tensor itself when given one; torch.cartesian_prod)."""
    from ._api import meshgrid
    if len(tensors) == 1:
        return tensors[0]
    if len({t.dtype for t in tensors}) > 1:
        raise RuntimeError("cartesian_prod: expects all tensors to have the same dtype, got "
                           f"{[t.dtype.name for t in tensors]}")
    grids = meshgrid(*tensors, indexing="ij")
    return stack([reshape(g, [-1]) for g in grids], 1)


_COMBINE = {"sum": lambda a, b: a + b, "mean": lambda a, b: a + b, "prod": lambda a, b: a * b,
            "amax": maximum, "amin": minimum}


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """torch.scatter_reduce (out of place): src's elements reduced into input at index along
    `dim` with `reduce` ('sum', 'prod', 'mean', 'amax', 'amin'), input's own value included
    unless include_self=False (then an untouched element keeps input's). The reduction runs
    in index's row-major order, as torch's CPU one; 'mean' of integers rounds down."""
    if reduce not in _COMBINE:
        raise RuntimeError(f"scatter_reduce: reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce!r}")
    _check_index_tensor("scatter_reduce", index)
    if reduce == "sum" and include_self:
        return scatter_add(input, dim, index, src)
    dim = _normalize_dim("scatter_reduce", dim, builtins.max(input.ndim, 1))
    if input.ndim == 0 or index.numel() == 0:
        shaped = [reshape(t, [1]) if t.ndim == 0 else t for t in (input, index, src)]
        return reshape(scatter_reduce(*shaped[:1], 0, shaped[1], shaped[2], reduce, include_self=include_self),
                       list(input.shape)) if input.ndim == 0 and index.numel() else input
    index, src = _one_element_as_1d(input, index), _one_element_as_1d(input, src)
    if src.ndim != input.ndim or index.ndim != input.ndim:
        raise RuntimeError("scatter_reduce: index, src and self must have the same number of dims, got "
                           f"{index.ndim}, {src.ndim} and {input.ndim}")
    positions = reshape(_along(input, dim, index, list(index.shape)), [-1])
    values = reshape(src[tuple(slice(0, n) for n in index.shape)], [-1]).to(input.dtype)
    flat = reshape(input, [-1])
    if reduce in ("sum", "mean"):
        # The sum by one accumulating index_put (each position's values added in index order, as
        # torch's), over input's elements or, without include_self, zeros where values land.
        hits = scatter_add(zeros_like(flat, dtype=_dtype.int64), 0, positions, ones_like(positions))
        base = flat if include_self else where(hits == 0, flat, zeros_like(flat))
        out = index_put(base, (positions,), values, True)
        if reduce == "mean":
            counts = hits + 1 if include_self else hits
            divisor = where(counts == 0, 1, counts).to(input.dtype)
            out = out / divisor if _floating(input.dtype) else floor_divide(out, divisor)
    elif reduce in ("amax", "amin") and not flat.is_global:
        out = apply("index_extreme", [flat, positions, values], {"minimum": reduce == "amin",
                                                                  "include_self": include_self})[0]
    else:  # prod, and amax/amin of global tensors (index_extreme runs on whole tensors only)
        out = _rounds(flat, positions, values, _COMBINE[reduce], include_self)
    return reshape(out, list(input.shape))


def index_reduce(input, dim, index, source, reduce, *, include_self=True):
    """torch.index_reduce (out of place): source's slices along `dim` reduced into input's
    slices index[i] with `reduce` ('prod', 'mean', 'amax', 'amin'), as scatter_reduce over
    the index spread along source's other dims."""
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    _check_index_tensor("index_reduce", index)
    if index.ndim > 1:
        raise IndexError(f"index_reduce(): Index is supposed to be a vector, got {index.ndim} dims")
    dim = _normalize_dim("index_reduce", dim, builtins.max(input.ndim, 1))
    spread = reshape(index, [-1 if d == dim else 1 for d in range(source.ndim)])
    return scatter_reduce(input, dim, broadcast_to(spread, list(source.shape)), source, reduce,
                          include_self=include_self)


def put(input, index, source, accumulate=False):
    """torch.put (out of place): source's elements written (or, accumulate, added) at the
    flat (row-major) positions index of input; negative positions count from the end."""
    _check_index_tensor("put", index)
    n = input.numel()
    flat = reshape(index, [-1])
    flat = where(flat < 0, flat + n, flat)
    out = index_put(reshape(input, [-1]), (flat,), reshape(source, [-1]).to(input.dtype), accumulate)
    return reshape(out, list(input.shape))


def _floating(dtype):
    return dtype.name in ("float32", "float64", "bfloat16", "float16")


def _rounds(flat, positions, values, combine, include_self):
    """flat with each value combined into its position, one round per repetition of a position
    (the k-th occurrences of every position in round k), so that each element's reduction runs
    in order and gradients flow through `combine`."""
    pos = positions.cpu()._numpy() if not positions.is_global else positions._part()._numpy()
    order = _np.argsort(pos, kind="stable")
    sorted_pos = pos[order]
    starts = _np.r_[0, _np.flatnonzero(_np.diff(sorted_pos)) + 1] if sorted_pos.size else _np.zeros(0, _np.int64)
    ranks = _np.empty_like(order)
    ranks[order] = _np.arange(order.size) - _np.repeat(starts, _np.diff(_np.r_[starts, order.size]))
    out = flat
    for k in range(int(ranks.max()) + 1 if ranks.size else 0):
        chosen = tensor(_np.flatnonzero(ranks == k), dtype=_dtype.int64, device=flat.device) \
            if not flat.is_global else None
        if chosen is None:
            raise NotImplementedError("scatter_reduce: global tensors take reduce='sum' (scatter_add) only")
        where_to, value = positions[chosen], values[chosen]
        if k == 0 and not include_self:
            out = index_put(out, (where_to,), value)
        else:
            out = index_put(out, (where_to,), combine(out[where_to], value))
    return out


def masked_scatter(input, mask, source):
    """torch.masked_scatter: input with the elements where `mask` (broadcast to input) is True
    replaced by source's first elements, in row-major order."""
    if mask.dtype != _dtype.bool_:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype {mask.dtype.name}")
    mask = broadcast_to(mask, list(input.shape)) if list(mask.shape) != list(input.shape) else mask
    count = int(_sum(mask).item())
    if source.numel() < count:
        raise RuntimeError(f"masked_scatter: expected source to have at least {count} elements (the number of "
                           f"True elements of the mask), got {source.numel()}")
    return index_put(input, mask, reshape(source, [-1])[:count])


# ---------------------------------------------------------------------------------------------
# Tensor methods

def _stride(self, dim=None):
    """PyTorch's strides of self in elements: a view's as torch lays it out over its base
    (x.t().stride() is (1, rows)), where meshflow can tell them; else, and for every tensor
    that is not a view, the row-major strides of its shape (meshflow's tensors are dense)."""
    strides = torch_strides(self)
    if strides is None:
        strides, step = [], 1
        for n in reversed(self.shape):
            strides.append(step)
            step *= builtins.max(n, 1)
        strides = tuple(reversed(strides))
    return strides if dim is None else strides[dim]


def _reshaping_in_place(name):
    """self.name_(...): self takes self.name(...)'s shape (and place in the graph), as torch's
    in-place metadata changes; a view stays a view of its base (reshape_view_in_place)."""
    def method(self, *args, **kwargs):
        if _live_views(self):
            raise RuntimeError(f"{name}_: meshflow changes the shape of a tensor in place only when it has no views "
                               f"(torch's views keep the old shape); use {name}() instead")
        if self.is_leaf and self.requires_grad and is_grad_enabled():
            raise RuntimeError(f"{name}_: a leaf Variable that requires grad is being used in an in-place operation")
        if getattr(self, "_view", None) is not None:
            return reshape_view_in_place(self, name, args, kwargs)
        self._impl.assign(getattr(Tensor, name)(self, *args, **kwargs)._impl)
        return self
    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"In place: self becomes self.{name}(...), a change of shape."
    return method


def _resize_(self, *sizes, memory_format=None):
    """torch's resize_: self takes the shape, keeping its first elements in row-major order
    (torch's storage of a tensor that is no view; a contiguous view keeping its size is viewed
    anew); elements past the old ones are zeros where torch's are uninitialized (and after a
    shrink, torch's storage still holds the old ones)."""
    shape = [int(n) for n in (sizes[0] if len(sizes) == 1 and isinstance(sizes[0], (list, tuple)) else sizes)]
    if any(n < 0 for n in shape):
        raise RuntimeError(f"Trying to create tensor with negative dimension in resize_: {shape}")
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    if list(self.shape) == shape:
        return self
    n = math.prod(shape)
    is_view = getattr(self, "_view", None) is not None
    if is_view and n == self.numel() and self.is_contiguous():  # torch's: the same elements, viewed anew
        return reshape_view_in_place(self, "view", (shape,), {})
    if is_view or _live_views(self):
        raise RuntimeError("resize_: meshflow changes the size of a tensor in place only when it is no view and has "
                           "no views (torch's share the storage); resize a copy (x.clone().resize_(...))")
    flat = self.reshape(-1)
    if n > flat.numel():
        flat = cat([flat, zeros(n - flat.numel(), dtype=self.dtype, device=None if self.is_global else self.device)])
    self._impl.assign(flat[:n].reshape(shape)._impl)
    return self


def _resize_as_(self, the_template, memory_format=None):
    return _resize_(self, tuple(the_template.shape))


_MANTISSA = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}  # bits, the implicit one included


def _random_(self, from_=0, to=None, *, generator=None):
    """Integers uniform in [from, to) (one argument: [0, to); none: [0, 2**mantissa] for a
    float dtype, as torch's), in self's dtype."""
    if to is None and from_ != 0:
        from_, to = 0, from_
    if to is None:
        to = 2 if self.dtype == _dtype.bool_ else 2 ** _MANTISSA[self.dtype.name] + 1 if _floating(self.dtype) \
            else int(_np.iinfo(self.dtype.name).max) + 1
    low, high = _check_range("random_", from_, to)
    u = rand_like(self, dtype=_dtype.float64, generator=generator)
    return _fill(self, _uniform_ints(u, low, high, self.dtype), "random_")


def _bernoulli_(self, p=0.5, *, generator=None):
    """1 with probability p (a number or a tensor broadcast to self), else 0, in self's dtype."""
    return _fill(self, (rand_like(self, dtype=_dtype.float64, generator=generator) < p).to(self.dtype),
                 "bernoulli_")


def _exponential_(self, lambd=1.0, *, generator=None):
    """Exponential with rate lambd: -log(1 - u) / lambd."""
    if lambd <= 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd}")
    u = rand_like(self, generator=generator)
    return _fill(self, -(-u).log1p() / lambd, "exponential_")


def _geometric_(self, p, *, generator=None):
    """Geometric on 1, 2, ...: the number of trials to the first success of probability p."""
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), got p={p}")
    u = rand_like(self, dtype=_dtype.float64, generator=generator)
    return _fill(self, ((-u).log1p() / math.log1p(-p)).ceil().clamp(min=1).to(self.dtype), "geometric_")


def _fill(self, value, name):
    return _inplace(self, lambda: value, name)


def _index_put_(self, indices, values, accumulate=False):
    """In place: self[indices] = values (added with accumulate), as torch's index_put_."""
    return _index_write(self, indices, values, accumulate, "index_put_")


Tensor.stride = _stride
Tensor.nansum = nansum
Tensor.nanmean = nanmean
Tensor.scatter_reduce = scatter_reduce
Tensor.index_reduce = index_reduce
Tensor.put = put
Tensor.masked_scatter = masked_scatter
Tensor.index_put_ = _index_put_
Tensor.random_ = _random_
Tensor.resize_ = _resize_
Tensor.resize_as_ = _resize_as_
Tensor.bernoulli_ = _bernoulli_
Tensor.exponential_ = _exponential_
Tensor.geometric_ = _geometric_
for _name in ("unsqueeze", "squeeze", "t", "transpose"):
    setattr(Tensor, _name + "_", _reshaping_in_place(_name))
install_inplace_methods()  # scatter_reduce_, masked_scatter_ (index_copy_ and the comparisons' are there already)
