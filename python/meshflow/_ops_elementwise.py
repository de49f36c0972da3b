"""Elementwise ops with NumPy broadcasting, as PyTorch names them (and their operators and
Tensor methods):

    add sub mul div floor_divide pow maximum minimum eq ne lt le gt ge where
    neg abs relu trunc exp log sqrt rsqrt tanh sigmoid, nn.functional.gelu, cast

Dtypes follow PyTorch where meshflow has them:
- There is no bool dtype: comparisons (==, <, eq, lt, ...) give 1 or 0 in their inputs'
  dtype, and where() takes any nonzero condition as true.
- exp, log, sqrt, rsqrt, tanh and sigmoid of an integer tensor are float32; gelu takes
  floats only.
- A Python number takes the tensor's dtype, except that an integer tensor meeting a Python
  float is first cast to float32. Two tensors of different dtypes are an error: cast one
  (x.float(), x.to(mf.float64), mf.cast(x, dtype)).
- `/` and div() divide exactly: integer tensors are first cast to float32. `//`,
  floor_divide() and div(rounding_mode="trunc" or "floor") keep integers, and there a zero
  divisor raises ValueError. An integer tensor to a negative integer power is an error.

A number becomes a tensor on the other operand's placement (broadcast) when that operand is
global, except in the scalar forms that need no tensor (x + c, x - c, x * c, x / c, x ** c,
c ** x, c - x).
"""
import numbers

import numpy as _np

from . import _C
from . import _dtype
from ._tensor import Tensor, _impl_of, _type_name, apply, tensor

__all__ = ["add", "sub", "mul", "div", "floor_divide", "pow", "maximum", "minimum", "eq", "ne", "lt", "le", "gt",
           "ge", "where", "neg", "abs", "relu", "trunc", "exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "cast",
           "clamp", "clip", "floor", "ceil", "remainder", "silu", "softplus", "lerp"]

_FLOATS = (_dtype.float32, _dtype.float64)


_PLAIN_NUMBERS = (int, float)  # exact types: bool and NumPy numbers take the general path


def _is_number(value):
    return isinstance(value, numbers.Real)


def _check_number(value):
    if not _is_number(value):
        raise TypeError(f"expected a meshflow.Tensor or a real number, got {_type_name(value)}")


def _promoted(x, value):
    """x as the op on (x, value) sees it: C++'s one rule (promote_for_scalar), PyTorch's: a
    Python float makes an integer tensor float32; a number never changes its dtype otherwise."""
    return Tensor(_C.promote_for_scalar(x._impl, _attr(value)))


def _attr(value):
    """A number as an op attribute; integers stay exact ints."""
    return int(value) if isinstance(value, numbers.Integral) else float(value)


def _scalar_tensor(value, dtype, like):
    """`value` as a 0-d tensor of `dtype`, broadcast on `like`'s placement if `like` is global."""
    array = _np.asarray(value, dtype=dtype.numpy)
    if like.is_global:
        placement = like.placement
        return tensor(array, placement=placement, sbp=[_C.Sbp.broadcast()] * len(placement.hierarchy))
    return _on_device_of(tensor(array), like)


def _on_device_of(t, like):
    """Local tensor t on local tensor `like`'s device."""
    return t if like._impl.device_type == "cpu" else t.to(like.device)


def _operands(a, b):
    """(a, b) as two tensors: a number follows the tensor (after _promoted)."""
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        return a, b
    if isinstance(a, Tensor):
        _check_number(b)
        a = _promoted(a, b)
        return a, _scalar_tensor(b, a.dtype, a)
    if isinstance(b, Tensor):
        _check_number(a)
        b = _promoted(b, a)
        return _scalar_tensor(a, b.dtype, b), b
    raise TypeError(f"expected at least one meshflow.Tensor, got {_type_name(a)} and {_type_name(b)}")


# Ops looked up once; calling one goes straight to C++ (no lookup by name, no attribute dict).
_ops = {}


def _op(name):
    if name not in _ops:
        _ops[name] = _C.op(name)
    return _ops[name]


def _scalar_op(name, x, value):
    """The C++ op `name` of tensor x and the number `value` (promoted there)."""
    return Tensor(_op(name).scalar(x._impl, _attr(value)))


def _binary(name, doc):
    handle = _op(name)

    def op(input, other):
        if type(input) is Tensor and type(other) is Tensor:
            return Tensor(handle.binary(input._impl, other._impl))
        a, b = _operands(input, other)
        return Tensor(handle.binary(a._impl, b._impl))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


def _unary(name, doc):
    handle = _op(name)

    def op(input):
        return Tensor(handle.unary(input._impl if type(input) is Tensor else _impl_of(name, input)))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


# ---------------------------------------------------------------------------------------------
# Binary ops. Each takes tensors or numbers (at least one tensor).

def _commutative(name, scalar_name, doc):
    """A binary op whose number operand, on either side, becomes the scalar form."""
    handle, scalar_handle = _op(name), _op(scalar_name)

    def op(input, other):
        if type(input) is Tensor:  # the common cases first, without ABC checks
            if type(other) is Tensor:
                return Tensor(handle.binary(input._impl, other._impl))
            if type(other) in _PLAIN_NUMBERS:
                return Tensor(scalar_handle.scalar(input._impl, other))
        elif type(other) is Tensor and type(input) in _PLAIN_NUMBERS:
            return Tensor(scalar_handle.scalar(other._impl, input))
        if isinstance(input, Tensor) and _is_number(other):
            return _scalar_op(scalar_name, input, other)
        if isinstance(other, Tensor) and _is_number(input):
            return _scalar_op(scalar_name, other, input)
        a, b = _operands(input, other)
        return Tensor(handle.binary(a._impl, b._impl))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


add = _commutative("add", "add_scalar", "input + other.")
mul = _commutative("mul", "mul_scalar", "input * other.")


def sub(input, other):
    """input - other."""
    if type(input) is Tensor:  # the common cases first, without ABC checks
        if type(other) is Tensor:
            return Tensor(_op("sub").binary(input._impl, other._impl))
        if type(other) in _PLAIN_NUMBERS:
            return Tensor(_op("add_scalar").scalar(input._impl, -other))
    if isinstance(input, Tensor) and _is_number(other):
        return _scalar_op("add_scalar", input, -other)
    if isinstance(other, Tensor) and _is_number(input):
        return _scalar_op("add_scalar", neg(_promoted(other, input)), input)
    return apply("sub", list(_operands(input, other)))[0]


def _to_float(x):
    return x if x.dtype in _FLOATS else cast(x, _dtype.float32)


def div(input, other, rounding_mode=None):
    """input / other. rounding_mode None: the exact quotient (integer tensors are cast to
    float32 first); "trunc": rounded toward zero; "floor": rounded down (= floor_divide)."""
    if rounding_mode is None and type(input) is Tensor and type(other) in _PLAIN_NUMBERS:
        return Tensor(_op("div_scalar").scalar(_to_float(input)._impl, other))
    if rounding_mode == "floor":
        return floor_divide(input, other)
    if rounding_mode not in (None, "trunc"):
        raise ValueError(f"div: rounding_mode must be None, 'trunc' or 'floor', got {rounding_mode!r}")
    if rounding_mode is None and isinstance(input, Tensor) and _is_number(other):
        return _scalar_op("div_scalar", _to_float(input), other)
    a, b = _operands(input, other)
    if rounding_mode == "trunc":
        quotient = apply("div", [a, b])[0]
        return trunc(quotient) if a.dtype in _FLOATS else quotient
    if a.dtype == b.dtype:  # a mismatch is left for the op to report
        a, b = _to_float(a), _to_float(b)
    return apply("div", [a, b])[0]


floor_divide = _binary("floor_divide", "input // other: the quotient rounded down (Python's and PyTorch's //).")


def pow(input, exponent):
    """input ** exponent (torch.pow); either may be a number."""
    if isinstance(input, Tensor) and _is_number(exponent):
        return _scalar_op("pow_scalar", input, exponent)
    if isinstance(exponent, Tensor) and _is_number(input):
        return _scalar_op("rpow_scalar", exponent, input)
    return apply("pow", list(_operands(input, exponent)))[0]


maximum = _binary("maximum", "The elementwise maximum; NaN if either is NaN.")
minimum = _binary("minimum", "The elementwise minimum; NaN if either is NaN.")
eq = _binary("eq", "input == other as 1 or 0 in the inputs' dtype.")
ne = _binary("ne", "input != other as 1 or 0 in the inputs' dtype.")
lt = _binary("lt", "input < other as 1 or 0 in the inputs' dtype.")
le = _binary("le", "input <= other as 1 or 0 in the inputs' dtype.")
gt = _binary("gt", "input > other as 1 or 0 in the inputs' dtype.")
ge = _binary("ge", "input >= other as 1 or 0 in the inputs' dtype.")


def where(condition, input, other):
    """input where condition is nonzero, else other; the three broadcast together. The
    condition may have any dtype; input and other are tensors of one dtype or numbers (two
    numbers give int64 if both are ints, else float32)."""
    if not isinstance(condition, Tensor):
        raise TypeError(f"where: condition must be a meshflow.Tensor, got {type(condition).__name__}")
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        _check_number(input)
        _check_number(other)
        ints = isinstance(input, numbers.Integral) and isinstance(other, numbers.Integral)
        dtype = _dtype.int64 if ints else _dtype.float32
        input, other = _scalar_tensor(input, dtype, condition), _scalar_tensor(other, dtype, condition)
    return apply("where", [condition, *_operands(input, other)])[0]


# ---------------------------------------------------------------------------------------------
# Unary ops.

neg = _unary("neg", "-input.")
abs = _unary("abs", "|input|.")
relu = _unary("relu", "max(input, 0).")
trunc = _unary("trunc", "input rounded toward zero (integers unchanged).")
exp = _unary("exp", "e ** input; integers give float32.")
log = _unary("log", "The natural logarithm; integers give float32.")
sqrt = _unary("sqrt", "The square root; integers give float32.")
rsqrt = _unary("rsqrt", "1 / sqrt(input); integers give float32.")
tanh = _unary("tanh", "The hyperbolic tangent; integers give float32.")
sigmoid = _unary("sigmoid", "1 / (1 + exp(-input)); integers give float32.")


def gelu(input, approximate="none"):
    """x * Phi(x) with Phi the standard normal CDF: the exact erf form ('none', torch's
    default; floats only) or torch's tanh approximation 0.5 x (1 + tanh(sqrt(2 / pi) (x +
    0.044715 x^3))) ('tanh', composed of ops)."""
    if approximate == "tanh":
        inner = (input + input * input * input * 0.044715) * 0.7978845608028654  # sqrt(2 / pi)
        return input * (tanh(inner) + 1.0) * 0.5
    if approximate != "none":
        raise ValueError(f"gelu: approximate={approximate!r}; expected 'none' or 'tanh'")
    return apply("gelu", [input])[0]


def cast(input, dtype):
    """input converted to `dtype` (floats to integers truncate toward zero)."""
    return apply("cast", [input], {"dtype": getattr(_C.DType, _dtype.to_dtype(dtype).name)})[0]


# ---------------------------------------------------------------------------------------------
# Operators and methods.

# ---- Composed of the ops above (so every device, layout and gradient is theirs), as torch.

def clamp(input, min=None, max=None):
    """input limited to [min, max] (either may be None; a number or a tensor)."""
    if min is None and max is None:
        raise ValueError("clamp: at least one of min and max must be given")
    out = input if min is None else maximum(input, min)
    return out if max is None else minimum(out, max)


clip = clamp


def floor(input):
    """The largest integer value <= input (integers stay as they are)."""
    if input.dtype not in _FLOATS:
        return input
    t = trunc(input)
    return t - cast(lt(input, t), input.dtype)


def ceil(input):
    """The smallest integer value >= input (integers stay as they are)."""
    if input.dtype not in _FLOATS:
        return input
    t = trunc(input)
    return t + cast(gt(input, t), input.dtype)


def remainder(input, other):
    """input - floor(input / other) * other: the sign of the divisor, as Python's % and torch's."""
    return input - floor_divide(input, other) * other


def silu(input):
    """input * sigmoid(input)."""
    return input * sigmoid(input)


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta x)) / beta, and x itself where beta x > threshold (torch's)."""
    scaled = input * beta
    smooth = (log(exp(-abs(scaled)) + 1.0) + relu(scaled)) / beta  # stable for any sign
    return where(gt(scaled, threshold), input, smooth)


def lerp(input, end, weight):
    """input + weight * (end - input)."""
    return input + weight * (end - input)


def _array_operand(x, array):
    """A NumPy array meeting tensor x in an operator, as a tensor of the array's dtype (a copy),
    as torch's operators take arrays. Beside a global tensor it is an error: whether the array
    would be the full value or this rank's part is a guess."""
    if x.is_global:
        raise TypeError(f"a numpy.ndarray of shape {array.shape} cannot meet a global tensor in an operator; "
                        "expected a global tensor: mf.tensor(array, placement=..., sbp=...) makes one")
    return _on_device_of(tensor(array), x)


def _operator(f, reflected=False):
    """A binary operator method. A NumPy array becomes a tensor (_array_operand); for other
    operands that are neither tensors nor numbers Python raises TypeError (and == compares
    them by identity)."""
    def method(self, other):
        if type(other) is Tensor or type(other) in _PLAIN_NUMBERS:
            return f(other, self) if reflected else f(self, other)
        if isinstance(other, _np.ndarray):
            other = _array_operand(self, other)
        elif not isinstance(other, Tensor) and not _is_number(other):
            return NotImplemented
        return f(other, self) if reflected else f(self, other)
    return method


for _name, _f in (("add", add), ("sub", sub), ("mul", mul), ("truediv", div), ("floordiv", floor_divide),
                  ("pow", pow), ("mod", remainder)):
    setattr(Tensor, f"__{_name}__", _operator(_f))
    setattr(Tensor, f"__r{_name}__", _operator(_f, reflected=True))
for _name, _f in (("eq", eq), ("ne", ne), ("lt", lt), ("le", le), ("gt", gt), ("ge", ge)):
    setattr(Tensor, f"__{_name}__", _operator(_f))
Tensor.__neg__ = neg
Tensor.__abs__ = abs
for _f in (add, sub, mul, div, floor_divide, pow, maximum, minimum, eq, ne, lt, le, gt, ge, neg, abs, relu, trunc,
           exp, log, sqrt, rsqrt, tanh, sigmoid, clamp, clip, floor, ceil, remainder, lerp):
    setattr(Tensor, _f.__name__, _f)
Tensor.where = lambda self, condition, other: where(condition, self, other)
Tensor.float = lambda self: self.to(_dtype.float32)
Tensor.double = lambda self: self.to(_dtype.float64)
Tensor.int = lambda self: self.to(_dtype.int32)
Tensor.long = lambda self: self.to(_dtype.int64)
del _name, _f
