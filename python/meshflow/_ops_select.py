"""argmax, argmin, and max / min with a dim (values and indices), torch's; tril and triu.
Composed of reductions, comparisons, where and arange, so every device and layout runs them:
the index of the first extreme element (torch's choice among ties), int64; a NaN is the
extreme of its line, as torch's (amax / amin propagate it)."""
import builtins
import operator

from . import _C, _dtype
from ._ops_creation import arange, zeros_like
from ._ops_elementwise import eq, ge, le, logical_not, masked_fill, maximum, minimum, ne, where
from ._ops_reduce import amax, amin
from ._tensor import Tensor, is_grad_enabled
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


def _arg(name, reduce, input, dim, keepdim):
    if dim is None:
        flat = input.reshape(-1)
        out = _arg(name, reduce, flat, 0, False)
        return out.reshape([1] * input.ndim) if keepdim else out
    if input.ndim == 0:  # its one element, at index 0 of dim 0 or -1 (torch's)
        if not -1 <= operator.index(dim) <= 0:
            raise _C.OpIndexError(f"[{name}] dim {dim} is out of range for a tensor of 0 dims; expected a dim in "
                                  "[-1, 0]")
        return zeros_like(input, dtype=_dtype.int64)
    d = operator.index(dim) % input.ndim
    n = input.shape[d]
    if n == 0:
        raise _C.OpIndexError(f"[{name}] dim {dim} is empty; expected at least one element")
    extreme = reduce(input, d, keepdim=True)
    hit = eq(input, extreme) | ne(input, input)  # a NaN line's extreme is NaN: its first NaN
    candidates = where(hit, _positions(input, n, d, input.ndim), n)
    return amin(candidates, d, keepdim=keepdim)


def argmax(input, dim=None, keepdim=False):
    """The index of the first largest element along `dim` (of the flattened tensor for None)."""
    return _arg("argmax", amax, input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    """The index of the first smallest element along `dim` (of the flattened tensor for None)."""
    return _arg("argmin", amin, input, dim, keepdim)


def _extreme(name, reduce, pairwise, arg, input, dim, keepdim):
    if isinstance(dim, Tensor):  # torch.max(a, b): elementwise
        return _C.grad_fn_as(pairwise(input, dim), f"{name.capitalize()}imumBackward0", input, dim)
    if dim is None:
        return _C.grad_fn_as(reduce(input), f"{name.capitalize()}Backward1", input)
    indices = arg(input, dim, keepdim)
    if not (input.requires_grad and is_grad_enabled()):
        return _returns(name)(reduce(input, dim, keepdim=keepdim), indices)
    # The values picked at the indices, so that the gradient goes to the returned index
    # alone, as torch's (amax's splits it among ties).
    if input.ndim == 0:  # its one element
        return _C.grad_fn_as(_returns(name)(input * 1, indices), f"{name.capitalize()}Backward0", input)
    d = operator.index(dim) % input.ndim
    picked = input.gather(d, indices if keepdim else indices.unsqueeze(d))
    return _C.grad_fn_as(_returns(name)(picked if keepdim else picked.squeeze(d), indices),
                         f"{name.capitalize()}Backward0", input)


def max(input, dim=None, keepdim=False):
    """The largest element; with `dim`, (values, indices) along it; with a tensor, maximum."""
    return _extreme("max", amax, maximum, argmax, input, dim, keepdim)


def min(input, dim=None, keepdim=False):
    """The smallest element; with `dim`, (values, indices) along it; with a tensor, minimum."""
    return _extreme("min", amin, minimum, argmin, input, dim, keepdim)


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
