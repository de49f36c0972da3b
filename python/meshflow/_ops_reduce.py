"""Reductions and softmax, PyTorch's names and semantics: mf.sum, mean, amax, amin, any,
all over a dim, a list of dims or every dim (dim=None), with keepdim; mf.softmax and
mf.log_softmax along a dim. Also tensor methods (x.sum(1), x.softmax(-1), ...).

sum and prod of an integer or bool tensor are int64 (with dtype=..., that dtype); mean takes floating
tensors; amax/amin of an empty dim is an error; any/all give bool (nonzero is true; of
nothing, False and True). var, std, logsumexp and norm are composed of these and elementwise ops, so
every device and layout runs them and their gradients are those ops'.
"""
import builtins
import numbers

from . import _C
from ._autocast import halves_in_float32 as _halves_in_float32
from ._tensor import Tensor, _in_c, apply

__all__ = ["sum", "mean", "amax", "amin", "softmax", "log_softmax", "var", "std", "logsumexp", "norm", "any", "all",
           "prod"]


def _dims(dim):
    """The "dims" attribute: [] (every dim) for None, a list for an int or a sequence."""
    if dim is None:
        return []
    if isinstance(dim, numbers.Integral) and not isinstance(dim, bool):
        return [int(dim)]
    if isinstance(dim, (list, tuple)) and builtins.all(isinstance(d, numbers.Integral) and not isinstance(d, bool)
                                              for d in dim):
        return [int(d) for d in dim]
    raise TypeError(f"dim must be None, an int or a list/tuple of ints, got {dim!r}")


def _reduction(name, doc):
    reduce = _C.op(name).reduce  # the bound method, looked up once

    def op(input, dim=None, keepdim=False):
        if type(input) is Tensor:  # the common case, straight to C++
            return Tensor(reduce(input._impl, _dims(dim), keepdim))
        return apply(name, [input], {"dims": _dims(dim), "keepdim": bool(keepdim)})[0]
    op.__name__ = name
    op.__doc__ = doc
    return op


_sum = _reduction("sum", "")


def _in_dtype(name, input, dims, keepdim, dtype):
    """Reduction `name` of input; with `dtype`, input cast to it first and the result of that
    dtype (the C++ ops give int64 for int32, which then wraps back to int32 as torch's
    int32 accumulator would)."""
    if dtype is None:
        return apply(name, [input], {"dims": dims, "keepdim": bool(keepdim)})[0]
    from ._ops_elementwise import cast
    out = apply(name, [cast(input, dtype)], {"dims": dims, "keepdim": bool(keepdim)})[0]
    return cast(out, dtype)


_sum_reduce = _C.op("sum").reduce


def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum over `dim` (an int, a list of ints, or None for every dim); integers and bools sum
    to int64; `dtype`: computed in and given as that dtype."""
    if dtype is None and type(input) is Tensor:  # the common case, straight to C++
        return Tensor(_sum_reduce(input._impl, _dims(dim), keepdim))
    return _in_dtype("sum", input, _dims(dim), keepdim, dtype)


def prod(input, dim=None, keepdim=False, *, dtype=None):
    """The product over `dim` (an int, or None for every element); integers and bools
    multiply in int64 (wrapping, as torch's); `dtype`: computed in and given as that dtype."""
    if dim is not None and not (isinstance(dim, numbers.Integral) and not isinstance(dim, bool)):
        raise TypeError(f"prod: dim must be None or an int, got {dim!r}")
    return _in_dtype("prod", input, _dims(dim), keepdim, dtype)


class _IntegerStatistic(NotImplementedError, ValueError):
    """mean / var / std of an integer tensor: torch's NotImplementedError (a RuntimeError), and
    the ValueError meshflow raised for small integers before."""


def mean(input, dim=None, keepdim=False, *, dtype=None):
    """Mean over `dim` (an int, a list of ints, or None for every dim) of a floating tensor
    (`dtype`: the input is cast to it first)."""
    if dtype is not None:
        from ._ops_elementwise import cast
        input = cast(input, dtype)
    try:  # C++ refuses integers and bools (ValueError, before anything runs): torch's error for them
        return apply("mean", [input], {"dims": _dims(dim), "keepdim": bool(keepdim)})[0]
    except ValueError:
        if not (input.dtype.is_floating_point or input.dtype.is_complex):
            raise _IntegerStatistic(f"mean(): could not infer output dtype. Input dtype must be either a floating "
                                    f"point or complex dtype. Got: {input.dtype.name}") from None
        raise
amax = _reduction("amax", "Maximum over `dim` (an int, a list of ints, or None for every dim).")
amin = _reduction("amin", "Minimum over `dim` (an int, a list of ints, or None for every dim).")


def _truth(reduce, input, dim, keepdim):
    """any (`reduce` amax) or all (amin) of input's truth values: bool, but uint8 for a uint8
    input (torch's rule, kept from its byte masks)."""
    from ._ops_elementwise import cast, logical_not
    x = input if input.dtype.name == "bool" else cast(input, "bool")
    dims = _dims(dim)
    if x.ndim and builtins.any(x.shape[d] == 0 for d in (dims or range(x.ndim))):
        # amax and amin have no value for nothing: count the true (any) or false (all) ones.
        found = cast(_sum(x if reduce == "amax" else logical_not(x), dim, keepdim), "bool")
        out = found if reduce == "amax" else logical_not(found)
    else:
        out = apply(reduce, [x], {"dims": dims, "keepdim": bool(keepdim)})[0]
    return cast(out, "uint8") if input.dtype.name == "uint8" else out


def any(input, dim=None, keepdim=False):
    """Whether any element over `dim` is nonzero (a bool tensor; False over nothing)."""
    return _truth("amax", input, dim, keepdim)


def all(input, dim=None, keepdim=False):
    """Whether every element over `dim` is nonzero (a bool tensor; True over nothing)."""
    return _truth("amin", input, dim, keepdim)


_ALONG = {}  # op name -> its C along(x, dim), looked up once


def _softmax_like(name, input, dim, dtype, causal):
    if type(dim) is int and dtype is None and not causal and type(input) is Tensor and input.ndim:
        along = _ALONG.get(name) or _ALONG.setdefault(name, _C.op(name).along)
        return Tensor(along(input._impl, dim))  # the common call, straight to C++
    if dim is None:  # torch's implicit dim (deprecated there, still taken)
        dim = 0 if input.ndim in (0, 1, 3) else 1
    if dtype is not None:
        input = input.to(dtype)
    if input.ndim == 0:  # one line of one element, dim 0 or -1 (torch's)
        return apply(name, [input.reshape([1])], {"dim": int(dim), "causal": bool(causal)})[0].reshape([])
    return apply(name, [input], {"dim": int(dim), "causal": bool(causal)})[0]


def softmax(input, dim=None, dtype=None, *, causal=False):
    """exp(x) / sum(exp(x)) along `dim`, computed without overflow, in `dtype` when given (the
    input cast first, as torch's). With causal (dim the last of [..., Tq, Tk]), element (i, j)
    with j > i + Tk - Tq gets probability 0 (attention)."""
    return _softmax_like("softmax", input, dim, dtype, causal)


def log_softmax(input, dim=None, dtype=None, *, causal=False):
    """x - log(sum(exp(x))) along `dim`, computed without overflow (dtype and causal as in
    softmax)."""
    return _softmax_like("log_softmax", input, dim, dtype, causal)


def _count(input, dim):
    if input.ndim == 0:  # dim 0 or -1 of a 0-d tensor is its one element (checked by the reduction)
        return 1
    n = 1
    for d in ([range(input.ndim)] if dim is None else [_dims(dim)])[0]:
        n *= input.shape[d]
    return n


@_halves_in_float32()
def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """The variance over `dim`: sum(|x - mean|^2) / (n - correction), correction 1 by default
    (torch's; unbiased=False is correction 0); of a complex tensor a real one, as torch's."""
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise _IntegerStatistic(f"std and var only support floating point and complex dtypes, got {input.dtype.name}")
    if correction is None:
        correction = 0 if unbiased is False else 1
    centered = input - mean(input, dim, keepdim=True)
    squares = centered * (centered.conj() if input.dtype.is_complex else centered)
    if input.dtype.is_complex:
        squares = squares.real
    out = sum(squares, dim, keepdim) / max(_count(input, dim) - correction, 0)
    return _C.grad_fn_as(out, "VarBackward0", input)


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """The square root of var (same arguments); its gradient is 0 where var is 0 (torch's)."""
    return _C.grad_fn_as(_root(var(input, dim, unbiased, keepdim, correction=correction), 2), "StdBackward0", input)


def _root(s, p):
    """s ** (1 / p) of a reduction s >= 0 whose gradient is 0 where s is 0, as torch's norm and
    std backward take there (the subgradient 0, where the chain rule gives inf * 0 = nan)."""
    if not s.requires_grad:
        return s ** (1.0 / p)
    from ._ops_elementwise import where
    zero = s == 0
    return where(zero, 0.0, where(zero, 1.0, s) ** (1.0 / p))


@_halves_in_float32()
def logsumexp(input, dim, keepdim=False):
    """log(sum(exp(x))) over `dim`, without overflow (the maximum taken out first: of a complex
    tensor, of the real parts, as torch's); integers and bools give float32, as torch's."""
    from ._ops_elementwise import cast, exp, log, where
    if not input.dtype.is_floating_point and not input.dtype.is_complex:
        input = cast(input, "float32")
    if input.numel():
        top = amax(input.real if input.dtype.is_complex else input, dim, keepdim=True).detach()
        top = where(top.abs() == float("inf"), 0.0, top)  # all -inf (or inf) rows: no nan from inf - inf
    else:  # nothing has no maximum; its logsumexp is log 0 = -inf (torch's), as the sum makes it
        top = 0.0
    out = log(sum(exp(input - top), dim, keepdim=True)) + top
    if not keepdim:
        out = out.reshape([n for d, n in enumerate(out.shape) if d not in [k % input.ndim for k in _dims(dim)]])
    return _C.grad_fn_as(out, "LogsumexpBackward0", input)


@_halves_in_float32("cuda")
def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    """The p-norm over `dim` (every dim by default): 2 ("fro"), 1, inf, -inf, 0 (the count of
    nonzeros) or any other number, as torch.linalg.vector_norm; the gradient is 0 where the
    norm is 0 (torch's). "nuc" is the nuclear norm of the matrices over `dim` (the last two
    dims by default), as torch's; `dtype` casts the input first."""
    if dtype is not None:
        input = input.to(dtype)
    if p == "nuc":
        from .linalg import matrix_norm
        return matrix_norm(input, "nuc", dim=(-2, -1) if dim is None else tuple(dim), keepdim=keepdim)
    if p == "fro":
        p = 2
    if isinstance(p, bool) or not isinstance(p, numbers.Real):
        raise ValueError(f"norm: p={p!r}; expected 'fro', 'nuc' or a number (inf and -inf too)")
    dims = _dims(dim)
    if p == 0:
        return sum((input != 0).to(input.dtype), dims, keepdim)
    # 2: x * x, not |x| * |x|, whose second derivative is 0 where x is 0 (torch's: 2 / norm there)
    x = input if p == 2 and not input.dtype.is_complex else input.abs()
    if p == float("inf"):
        out = amax(x, dims, keepdim)
    elif p == float("-inf"):
        out = amin(x, dims, keepdim)
    elif p == 1:
        out = sum(x, dims, keepdim)
    else:
        out = _root(sum(x * x if p == 2 else x ** p, dims, keepdim), p)
    return _C.grad_fn_as(out, "LinalgVectorNormBackward0", input)


Tensor.sum, Tensor.mean, Tensor.amax, Tensor.amin, Tensor.any, Tensor.all = sum, mean, amax, amin, any, all
for _f in (sum, amax, amin):  # in C: x.sum(), x.sum(dim), x.sum(dim, keepdim) go straight to C++
    setattr(Tensor, _f.__name__, _in_c("reduce", _f.__name__, None, _f))
Tensor.prod = prod
Tensor.softmax, Tensor.log_softmax = softmax, log_softmax
Tensor.var, Tensor.std, Tensor.logsumexp, Tensor.norm = var, std, logsumexp, norm
