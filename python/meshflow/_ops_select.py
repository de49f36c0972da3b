"""argmax, argmin, and max / min with a dim (values and indices), torch's: the C++ ops max_dim
and min_dim, the index of the first extreme element (torch's choice among ties), int64; a NaN
is the extreme of its line, as torch's (amax / amin propagate it). tril and triu."""
import operator

from . import _C
from ._ops_creation import arange
from ._ops_elementwise import ge, le, logical_not, masked_fill, maximum, minimum
from ._ops_reduce import amax, amin
from ._tensor import Tensor, apply
from .return_types import named as _returns

__all__ = ["argmax", "argmin", "max", "min", "tril", "triu"]


def _positions(x, n, dim, ndim):
    """0 .. n-1 along `dim` of an ndim-d tensor (size 1 elsewhere), where x is: its device,
    or its placement (broadcast)."""
    from .sbp import broadcast
    if x.is_global:
        idx = arange(n, placement=x.placement, sbp=[broadcast] * len(x.sbp))
    else:
        idx = arange(n, device=x.device)
    shape = [1] * ndim
    shape[dim] = n
    return idx.reshape(shape)


def _along(name, input, dim, keepdim):
    """(values, indices) along dim of the C++ op `name` (max_dim or min_dim): one pass, the
    first extreme's index."""
    return apply(name, [input], {"dim": operator.index(dim), "keepdim": bool(keepdim)})


def _arg(name, input, dim, keepdim):
    if dim is None:
        out = _along(name, input.reshape(-1), 0, False)[1]
        return out.reshape([1] * input.ndim) if keepdim else out
    return _along(name, input, dim, keepdim)[1]


def argmax(input, dim=None, keepdim=False):
    """The index of the first largest element along `dim` (of the flattened tensor for None)."""
    return _arg("max_dim", input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    """The index of the first smallest element along `dim` (of the flattened tensor for None)."""
    return _arg("min_dim", input, dim, keepdim)


def _extreme(name, reduce, pairwise, input, dim, keepdim):
    if isinstance(dim, Tensor):  # torch.max(a, b): elementwise
        return _C.grad_fn_as(pairwise(input, dim), f"{name.capitalize()}imumBackward0", input, dim)
    if dim is None:  # amax's value; its gradient at a NaN result goes to the NaN elements (torch's)
        out = apply(reduce.__name__, [input], {"dims": [], "keepdim": False, "nan_is_extremum": True})[0] \
            if input.requires_grad else reduce(input)
        return _C.grad_fn_as(out, f"{name.capitalize()}Backward1", input)
    # The gradient goes to the returned index alone, as torch's (amax's splits it among ties).
    return _returns(name)(*_along(name + "_dim", input, dim, keepdim))


def max(input, dim=None, keepdim=False):
    """The largest element; with `dim`, (values, indices) along it; with a tensor, maximum."""
    return _extreme("max", amax, maximum, input, dim, keepdim)


def min(input, dim=None, keepdim=False):
    """The smallest element; with `dim`, (values, indices) along it; with a tensor, minimum."""
    return _extreme("min", amin, minimum, input, dim, keepdim)


def _triangle(name, keep, input, diagonal):
    if input.ndim < 2:
        raise ValueError(f"[{name}] expected a tensor of at least 2 dims, got shape {tuple(input.shape)}")
    rows, cols = input.shape[-2], input.shape[-1]
    i = _positions(input, rows, 0, 2)
    j = _positions(input, cols, 1, 2)
    mask = keep(j - i, operator.index(diagonal))  # j - i <= diagonal (tril) or >= (triu)
    # Not a product: inf * 0 would leave NaN where torch has 0. The zero is of input's dtype
    # (masked_fill's value), not a number promoted with it: a bool triangle stays a bool mask.
    return _C.grad_fn_as(masked_fill(input, logical_not(mask), 0), f"{name.capitalize()}Backward0", input)


def tril(input, diagonal=0):
    """The lower triangle of the last two dims (j - i <= diagonal), zeros above."""
    return _triangle("tril", le, input, diagonal)


def triu(input, diagonal=0):
    """The upper triangle of the last two dims (j - i >= diagonal), zeros below."""
    return _triangle("triu", ge, input, diagonal)


Tensor.argmax, Tensor.argmin, Tensor.max, Tensor.min = argmax, argmin, max, min
Tensor.tril, Tensor.triu = tril, triu
