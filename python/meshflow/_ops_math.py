"""Math ops of torch's names, their Tensor methods and aliases:

    sin cos tan asin acos atan sinh cosh asinh acosh atanh erf erfc erfinv log1p expm1 log2
    log10 exp2 reciprocal sign (sgn) round frac square lgamma digamma polygamma mvlgamma i0;
    atan2 fmod hypot copysign
    cumsum cumprod logcumsumexp; sort argsort topk kthvalue median; flip fliplr flipud roll

Dtypes as torch's: the transcendental functions and reciprocal of an integer tensor are
float32, as are atan2 and copysign of integers; sign, round, square and fmod keep integers;
frac and hypot take floats only. cumsum and cumprod of integers are int64 (or `dtype`).
Sorting is stable, with NaN the largest value; sort, topk, kthvalue and median with a dim
give (values, indices), unpackable like torch.return_types. topk, median and roll are
composed of sort, cumprod, slices and cat, so every device, layout and gradient is theirs;
kthvalue is torch's quickselect (an op of its own: which of equal values it picks is torch's).
"""
import builtins
import operator

from . import _C, _dtype
from ._function import Function as _Function
from ._ops_elementwise import _binary, _named, _promote, _unary, abs, cast, clamp, eq, gt, mul, ne, neg, where
from ._ops_reduce import sum as _sum
from .return_types import named as _returns
from ._ops_shape import cat, narrow, reshape, squeeze
from ._tensor import Tensor, apply, is_grad_enabled

__all__ = ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "arcsin",
           "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "erf", "erfc", "erfinv", "log1p", "expm1", "log2",
           "log10", "exp2", "reciprocal", "sign", "sgn", "round", "frac", "square", "atan2", "arctan2", "fmod",
           "hypot", "copysign", "absolute", "negative", "clamp_min", "clamp_max", "fix", "cumsum", "cumprod",
           "logcumsumexp", "sort", "argsort", "topk", "kthvalue", "median", "nanmedian", "flip", "fliplr", "flipud",
           "roll", "lgamma", "digamma", "polygamma", "mvlgamma", "i0"]

# ---------------------------------------------------------------------------------------------
# Elementwise.

sin = _unary("sin", "The sine; integers give float32.", floats=True)
cos = _unary("cos", "The cosine; integers give float32.", floats=True)
tan = _unary("tan", "The tangent; integers give float32.", floats=True)
asin = _unary("asin", "The inverse sine (NaN outside [-1, 1]); integers give float32.", floats=True)
acos = _unary("acos", "The inverse cosine (NaN outside [-1, 1]); integers give float32.", floats=True)
atan = _unary("atan", "The inverse tangent; integers give float32.", floats=True)
sinh = _unary("sinh", "The hyperbolic sine; integers give float32.", floats=True)
cosh = _unary("cosh", "The hyperbolic cosine; integers give float32.", floats=True)
asinh = _unary("asinh", "The inverse hyperbolic sine; integers give float32.", floats=True)
acosh = _unary("acosh", "The inverse hyperbolic cosine (NaN below 1); integers give float32.", floats=True)
atanh = _unary("atanh", "The inverse hyperbolic tangent (NaN outside [-1, 1]); integers give float32.", floats=True)
erf = _unary("erf", "The error function; integers give float32.", floats=True)
erfc = _unary("erfc", "1 - erf(input), without its cancellation; integers give float32.", floats=True)
erfinv = _unary("erfinv", "The inverse error function (+-inf at +-1, NaN outside); integers give float32.",
                floats=True)
log1p = _unary("log1p", "log(1 + input), exact for small input; integers give float32.", floats=True)
expm1 = _unary("expm1", "exp(input) - 1, exact for small input; integers give float32.", floats=True)
log2 = _unary("log2", "The base-2 logarithm; integers give float32.", floats=True)
log10 = _unary("log10", "The base-10 logarithm; integers give float32.", floats=True)
exp2 = _unary("exp2", "2 ** input; integers give float32.", floats=True)
reciprocal = _unary("reciprocal", "1 / input; integers give float32.", floats=True)
_sign = _unary("sign", "")
lgamma = _unary("lgamma", "log |Gamma(input)| (inf at the poles); integers give float32.", floats=True)
i0 = _unary("i0", "The modified Bessel function of the first kind of order 0; integers give float32.", floats=True)
digamma = _unary("digamma", "The logarithmic derivative of Gamma (-inf / inf at 0, NaN at the negative integers); "
                            "integers give float32.", floats=True)


def polygamma(n, input):
    """The n-th derivative of digamma (n 0: digamma itself); integers give float32."""
    n = operator.index(n)
    if n < 0:
        raise RuntimeError(f"polygamma(n, x) does not support negative n, got {n}")
    if n == 0:
        return digamma(input)
    if not input.dtype.is_floating_point and not input.dtype.is_complex:  # complex: refused by the op
        input = cast(input, _dtype.float32)
    return apply("polygamma", [input], {"n": n})[0]


def _polygamma_method(self, n):
    return polygamma(n, self)


def mvlgamma(input, p):
    """The multivariate log-gamma of dimension p: sum over i < p of lgamma(input - i / 2), plus
    p (p - 1) / 4 log(pi) (torch's; it needs every input > (p - 1) / 2)."""
    import math
    if p < 1:
        raise RuntimeError(f"p has to be greater than or equal to 1, got {p}")
    if bool((input <= (p - 1) / 2).any()):
        raise RuntimeError(f"All elements must be greater than (p-1)/2 = {(p - 1) / 2}")
    out = lgamma(input)
    for i in range(1, p):
        out = out + lgamma(input - i / 2)
    return out + p * (p - 1) / 4 * math.log(math.pi)


def sign(input):
    """1, 0 or -1 in input's dtype (0 for NaN); of a bool tensor, a copy (torch's)."""
    if input.dtype.is_complex:
        raise RuntimeError("Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
                           "torch.sgn instead.")
    return cast(input, _dtype.bool_) if input.dtype == _dtype.bool_ else _sign(input)


def sgn(input):
    """sign(input); of a complex tensor input / |input| (0 at 0), with torch's gradient."""
    if not input.dtype.is_complex:
        return sign(input)
    from ._ops_elementwise import where
    size = input.abs()
    zero = size == 0
    return where(zero, 0, input / where(zero, 1, size))


frac = _unary("frac", "input - trunc(input), floats only.")
arcsin, arccos, arctan, arcsinh, arccosh, arctanh = asin, acos, atan, asinh, acosh, atanh
fix = _unary("trunc", "input rounded toward zero (integers unchanged).")
absolute = abs
negative = neg

_round = _unary("round", "")


def round(input, *, decimals=0):
    """input rounded to `decimals` decimal places, halves to even (torch.round); integers stay."""
    decimals = operator.index(decimals)
    if decimals == 0 or not input.dtype.is_floating_point:
        return _round(input)
    if decimals > 0:
        scale = 10.0 ** decimals
        return _round(input * scale) / scale
    scale = 10.0 ** -decimals
    return _round(input / scale) * scale


def square(input):
    """input * input (integers stay integers; bools give int64, as torch's pow(input, 2))."""
    x = cast(input, _dtype.int64) if input.dtype == _dtype.bool_ else input
    return mul(x, x)


def _float_binary(name, doc, integers_to_float):
    handle = _binary(name, doc)

    def op(input, other):
        a, b, _ = _promote(input, other, floats=integers_to_float)
        return handle(a, b)
    return _named(op, name, doc)


atan2 = _float_binary("atan2", "The angle of the point (other, input), in [-pi, pi]; integers give float32.", True)
arctan2 = atan2
hypot = _float_binary("hypot", "sqrt(input ** 2 + other ** 2) without overflow; floats only.", False)
copysign = _float_binary("copysign", "|input| with the sign of other; integers give float32.", True)
fmod = _binary("fmod", "C's fmod: the remainder with the dividend's sign (integers keep their dtype; an integer "
                       "zero divisor raises ValueError).")


def clamp_min(input, min):
    """max(input, min)."""
    return clamp(input, min=min)


def clamp_max(input, max):
    """min(input, max)."""
    return clamp(input, max=max)


# ---------------------------------------------------------------------------------------------
# Scans and products.

def _dim(name, dim, ndim):
    """dim in [0, ndim) (a 0-d tensor has one dim here, as in torch), with the C++ ops' wording
    and error class (IndexError, and the ValueError it was)."""
    d = operator.index(dim)
    n = builtins.max(ndim, 1)
    if not -n <= d < n:
        raise _C.OpIndexError(f"[{name}] dim {d} is out of range for a tensor of {ndim} dims; expected a dim in "
                              f"[{-n}, {n})")
    return d % n


def _accumulated(input, dtype):
    """input in the dtype of its scan or product: `dtype`, else int64 for integers (torch's)."""
    if dtype is not None:
        dtype = _dtype.to_dtype(dtype)
        return input if input.dtype == dtype else cast(input, dtype)
    return input if input.dtype.is_floating_point or input.dtype.is_complex else cast(input, _dtype.int64)


def cumsum(input, dim, *, dtype=None):
    """Running sums along dim; integers give int64 unless `dtype` says otherwise."""
    x = _accumulated(input, dtype)
    return apply("cumsum", [x], {"dim": _dim("cumsum", dim, x.ndim)})[0]


def cumprod(input, dim, *, dtype=None):
    """Running products along dim; integers give int64 unless `dtype` says otherwise."""
    x = _accumulated(input, dtype)
    return apply("cumprod", [x], {"dim": _dim("cumprod", dim, x.ndim)})[0]


def logcumsumexp(input, dim):
    """log(cumsum(exp(input), dim)) without overflow; floats only."""
    return apply("logcumsumexp", [input], {"dim": _dim("logcumsumexp", dim, input.ndim)})[0]


# ---------------------------------------------------------------------------------------------
# Sorting.

def sort(input, dim=-1, descending=False, stable=False):
    """(values, indices) along dim, ascending unless `descending`, NaN the largest value; ties
    keep their order where `stable`, else take the order torch's CPU sort leaves them in."""
    d = _dim("sort", dim, input.ndim)
    if input.dtype == _dtype.bool_:  # sorted as 0 and 1, as torch's
        values, indices = sort(cast(input, _dtype.uint8), d, descending, stable)
        return _returns("sort")(cast(values, _dtype.bool_), indices)
    values, indices = apply("sort", [input], {"dim": d, "descending": bool(descending), "stable": bool(stable)})
    return _returns("sort")(values, indices)


def argsort(input, dim=-1, descending=False, stable=False):
    """The indices that sort input along dim (sort's indices)."""
    return sort(input, dim, descending, stable).indices


def topk(input, k, dim=-1, largest=True, sorted=True):
    """The k largest (smallest: largest=False) elements along dim and their indices, in
    sorted order (sorted=False: torch's selection order); among equal values, torch's CPU
    topk's indices."""
    d = _dim("topk", dim, input.ndim)
    n = input.shape[d] if input.ndim else 1
    k = operator.index(k)
    if not 0 <= k <= n:
        raise _C.OpError(f"[topk] k = {k} is out of range for dim {d} of size {n}; expected 0 <= k <= {n}")
    if input.dtype == _dtype.bool_:  # sorted as 0 and 1, as torch's
        values, indices = topk(cast(input, _dtype.uint8), k, d, largest, sorted)
        return _returns("topk")(cast(values, _dtype.bool_), indices)
    values, indices = apply("sort", [input], {"dim": d, "descending": bool(largest), "k": k, "sorted": bool(sorted)})
    return _C.grad_fn_as(_returns("topk")(values, indices), "TopkBackward0", input)


def _select(name, values, indices, d, position, keepdim):
    """Element `position` along d of sorted values and indices, as op `name`'s result."""
    if values.ndim == 0:
        return _returns(name)(values, indices)
    v, i = narrow(values, d, position, 1), narrow(indices, d, position, 1)
    return _returns(name)(v, i) if keepdim else _returns(name)(squeeze(v, d), squeeze(i, d))


def kthvalue(input, k, dim=-1, keepdim=False):
    """The k-th smallest element along dim (k from 1) and its index: torch's quickselect's
    index among equal values."""
    d = _dim("kthvalue", dim, input.ndim)
    values, indices = apply("kthvalue", [input], {"dim": d, "k": operator.index(k)})
    return _C.grad_fn_as(_select("kthvalue", values, indices, d, 0, keepdim), "KthvalueBackward0", input)


def median(input, dim=None, keepdim=False):
    """The lower median: of all elements (a 0-d tensor), or (values, indices) along dim.
    NaN where a NaN is present (its first one along dim), as torch."""
    if dim is None:
        flat = reshape(input, [-1])
        if flat.shape[0] == 0:
            return _median_of_nothing("median", input)
        return _C.grad_fn_as(_evenly_differentiated(flat, reshape(median(flat, 0).values, [])), "MedianBackward0", input)
    d = _dim("median", dim, input.ndim)
    n = input.shape[d] if input.ndim else 1
    if n == 0:
        raise _C.OpIndexError(f"[median] dim {d} is empty; expected at least one element")
    values, indices = sort(input, d, stable=True)
    k = (n - 1) // 2
    if not input.dtype.is_floating_point or input.ndim == 0:
        return _select("median", values, indices, d, k, keepdim)
    # NaNs sort last, in their order: the first one is at n - (their count).
    nans = _sum(cast(ne(input, input), _dtype.int64), d, keepdim=True)
    position = where(gt(nans, 0), n - nans, k)
    v = apply("gather", [values, position], {"dim": d})[0]
    i = apply("gather", [indices, position], {"dim": d})[0]
    return _returns("median")(v, i) if keepdim else _returns("median")(squeeze(v, d), squeeze(i, d))


def _median_of_nothing(name, input):
    """median() and nanmedian() of an empty tensor: torch's NaN for floats (an error here for
    integers, whose torch value is arbitrary)."""
    if not input.dtype.is_floating_point:
        raise _C.OpIndexError(f"[{name}] the tensor is empty; expected at least one element")
    from ._ops_creation import full
    return full([], float("nan"), dtype=input.dtype, device=input.device)


def _evenly_differentiated(flat, value):
    """value (an element of flat, 0-d) with the gradient shared evenly among flat's elements
    equal to it (NaN ones for a NaN), as torch's median() and nanmedian() of all elements;
    the value itself stays exact (a mean of the equal elements could round)."""
    if not (flat.requires_grad and is_grad_enabled()):
        return value
    return _EvenlyShared.apply(flat, value.detach())


class _EvenlyShared(_Function):
    """value, whose gradient goes to flat's elements equal to it, split evenly. A backward of
    its own: carrying the gradient by arithmetic (value + (s - s.detach()) for a sum s of
    flat's elements) made the value NaN wherever flat held an inf or a NaN."""

    @staticmethod
    def forward(ctx, flat, value):
        hits = cast(eq(flat, value) | (ne(flat, flat) & ne(value, value)), flat.dtype)
        ctx.save_for_backward(hits / _sum(hits))
        return value.clone()

    @staticmethod
    def backward(ctx, grad):
        share, = ctx.saved_tensors
        return grad * share, None


def nanmedian(input, dim=None, keepdim=False):
    """median of the values that are not NaN (the lower one; NaN where a slice has none), as
    torch's; (values, indices) along dim."""
    if dim is None:
        flat = reshape(input, [-1])
        if flat.shape[0] == 0:
            return _median_of_nothing("nanmedian", input)
        return _evenly_differentiated(flat, reshape(nanmedian(flat, 0).values, []))
    d = _dim("nanmedian", dim, input.ndim)
    if not input.dtype.is_floating_point or input.ndim == 0:
        return median(input, d, keepdim)
    values, indices = sort(input, d)  # NaNs last
    count = input.shape[d] - _sum(cast(ne(input, input), _dtype.int64), d, keepdim=True)
    position = (count - 1).clamp(min=0) // 2
    v = apply("gather", [values, position], {"dim": d})[0]
    i = apply("gather", [indices, position], {"dim": d})[0]
    return _returns("nanmedian")(v, i) if keepdim else _returns("nanmedian")(squeeze(v, d), squeeze(i, d))


# ---------------------------------------------------------------------------------------------
# Flips and rolls.

def _dims(dims):
    return [operator.index(dims)] if not isinstance(dims, (list, tuple)) else [operator.index(d) for d in dims]


def flip(input, dims):
    """input with the order of its elements reversed along each of dims."""
    return apply("flip", [input], {"dims": _dims(dims)})[0]


def _flip_method(self, *dims):
    """x.flip(dims) or x.flip(d0, d1, ...), as torch's."""
    return flip(self, dims[0] if len(dims) == 1 else list(dims))


def fliplr(input):
    """input reversed along dim 1 (left to right); at least 2 dims."""
    if input.ndim < 2:
        raise _C.OpError(f"[fliplr] expected a tensor of at least 2 dims, got shape {tuple(input.shape)}")
    return flip(input, [1])


def flipud(input):
    """input reversed along dim 0 (up to down); at least 1 dim."""
    if input.ndim < 1:
        raise _C.OpError(f"[flipud] expected a tensor of at least 1 dim, got shape {tuple(input.shape)}")
    return flip(input, [0])


def roll(input, shifts, dims=None):
    """Elements moved `shifts` places along dims (wrapping around); dims None: along the
    flattened tensor, its shape kept."""
    if dims is None:
        if isinstance(shifts, (list, tuple)) and len(shifts) != 1:
            raise _C.OpError(f"[roll] {len(shifts)} shifts without dims; expected one shift to roll the flattened "
                             "tensor by, or one shift per dim")
        return _C.grad_fn_as(reshape(roll(reshape(input, [-1]), shifts, 0), list(input.shape)), "RollBackward0", input)
    shifts, dims = _dims(shifts), _dims(dims)
    if len(shifts) != len(dims):
        raise _C.OpError(f"[roll] {len(shifts)} shifts for {len(dims)} dims; expected one shift per dim")
    out = input
    for shift, dim in zip(shifts, dims):
        d = _dim("roll", dim, input.ndim)
        n = out.shape[d] if out.ndim else 1
        s = shift % n if n else 0
        if s and out.ndim:
            out = cat([narrow(out, d, n - s, s), narrow(out, d, 0, n - s)], d)
    # no shift (or one of a whole dim): still a new tensor, as torch's; the program may write to it
    # (makemore's MLP rolls a (b, 1) index tensor and sets its first column)
    return _C.grad_fn_as(out if out is not input else input.clone(), "RollBackward0", input)


for _name in __all__:
    setattr(Tensor, _name, globals()[_name])
Tensor.flip = _flip_method
Tensor.polygamma = _polygamma_method
del _name
