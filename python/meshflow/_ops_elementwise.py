"""Elementwise ops with NumPy broadcasting, as PyTorch names them (and their operators and
Tensor methods):

    add sub mul div floor_divide pow maximum minimum remainder eq ne lt le gt ge where
    logical_and logical_or logical_xor logical_not bitwise_and bitwise_or bitwise_xor
    bitwise_not bitwise_left_shift bitwise_right_shift (& | ^ ~ << >>) isnan isinf isfinite masked_fill
    neg abs relu trunc exp log sqrt rsqrt tanh sigmoid, nn.functional.gelu, cast

Dtypes follow PyTorch:
- Every binary op takes its operands' dtype from torch's type promotion (_promotion.py:
  mf.result_type): int32 + int64 -> int64, float32 + float64 -> float64, an integer tensor
  and a Python float -> float32, bool + int tensor -> int, a 0-d tensor or a number never
  widens a tensor of its category (float32 tensor + float64 0-d tensor -> float32).
- Comparisons (==, <, eq, lt, ...), logical ops and isnan/isinf/isfinite give bool;
  where() and masked_fill() take a bool condition (any other dtype is an error, as in torch).
- On two bools, + and maximum are or, * and minimum are and; -, //, %, ** are errors.
- exp, log, sqrt, rsqrt, tanh and sigmoid of integer and bool tensors are float32; gelu takes
  floats only.
- `/` and div() divide exactly: integer and bool operands are first cast to float32. `//`,
  floor_divide() and div(rounding_mode="trunc" or "floor") keep integers, and there a zero
  divisor raises ValueError. An integer tensor to a negative integer power is an error.
- Bitwise ops take bool and integer tensors.

A number becomes a tensor on the other operand's placement (broadcast) when that operand is
global, except in the scalar forms that need no tensor (x + c, x - c, x * c, x / c, x ** c,
c ** x, c - x).
"""
import functools
import inspect
import numbers

import numpy as _np

from . import _C
from . import _dtype
from ._autocast import halves_in_float32 as _halves_in_float32
from ._promotion import result_dtype, _default as _default_float
from ._tensor import Tensor, _impl_of, _in_c, _type_name, apply, tensor

__all__ = ["add", "sub", "mul", "div", "floor_divide", "pow", "maximum", "minimum", "eq", "ne", "lt", "le", "gt",
           "ge", "where", "neg", "abs", "relu", "trunc", "exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "cast",
           "clamp", "clip", "floor", "ceil", "remainder", "silu", "softplus", "lerp",
           "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor",
           "bitwise_not", "bitwise_left_shift", "bitwise_right_shift", "isnan", "isinf", "isfinite", "masked_fill"]

_FLOAT_NAMES = ("float32", "float64", "bfloat16", "float16")


_PLAIN_NUMBERS = (int, float)  # exact types: bool and NumPy numbers take the general path


def _is_number(value):
    return isinstance(value, numbers.Real)


def _check_number(value):
    if not isinstance(value, numbers.Complex):
        raise TypeError(f"expected a meshflow.Tensor or a number, got {_type_name(value)}")


def _attr(value):
    """A number as an op attribute; integers stay exact ints."""
    return int(value) if isinstance(value, numbers.Integral) else float(value)


def _scalar_tensor(value, dtype, like):
    """`value` as a 0-d tensor of `dtype`, broadcast on `like`'s placement if `like` is global."""
    array = _np.asarray(value, dtype=dtype.numpy)
    if like.is_global:
        placement = like.placement
        return tensor(array, placement=placement, sbp=[_C.Sbp.broadcast()] * len(placement.hierarchy))
    return _on_device_of(tensor(array, dtype=dtype), like)


def _filled(value, like):
    """`value` as a 0-d tensor of `like`'s dtype, device and placement (broadcast), converted by
    C++'s full as torch's fill_ converts it (refusing an overflow, "checked": even for one
    element); a complex one as it is."""
    if not isinstance(value, numbers.Real):
        return _scalar_tensor(value, like.dtype, like)
    attrs = {"shape": [], "dtype": getattr(_C.DType, like.dtype.name), "checked": True,
             "value": int(value) if isinstance(value, numbers.Integral) else float(value)}
    if like.is_global:
        placement = like.placement
        return apply("full", [], attrs, placement=placement, sbp=[_C.Sbp.broadcast()] * len(placement.hierarchy))[0]
    return _on_device_of(apply("full", [], attrs)[0], like)


def _on_device_of(t, like):
    """Local tensor t on local tensor `like`'s device."""
    return t if like._impl.device_type == "cpu" else t.to(like.device)


def _cast_to(x, dtype):
    return x if x.dtype == dtype else cast(x, dtype)


def _widened(x, number=0.0):
    """x cast to the default float dtype where an op turns it from integers or bool into floats
    (a float `number` beside it, or an op of floats) and the default is not float32, the one
    C++ gives (torch: the default dtype); x as it is otherwise."""
    if _default_float[0] is _dtype.float32 or type(number) is int or x._impl.dtype in _FLOAT_NAMES:
        return x
    return cast(x, _default_float[0])


def _promote(input, other, floats=False):
    """(a, b, dtype): the dtype a binary op computes in on `input` and `other` (tensors or real
    numbers, at least one tensor): torch's result_type, made the default float dtype for
    integers and bool when `floats` (true division); each tensor cast to it, numbers as they
    are. The one place every binary op's dtype comes from."""
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError(f"expected at least one meshflow.Tensor, got {_type_name(input)} and {_type_name(other)}")
    for x in (input, other):
        if not isinstance(x, Tensor):
            _check_number(x)
    dtype = result_dtype(input, other)
    if floats and dtype.name not in _FLOAT_NAMES and not dtype.is_complex:
        dtype = _default_float[0]
    a = _cast_to(input, dtype) if isinstance(input, Tensor) else input
    b = _cast_to(other, dtype) if isinstance(other, Tensor) else other
    return a, b, dtype


def _tensors(a, b, dtype):
    """(a, b) as tensors: a number becomes a 0-d tensor of `dtype` beside the other operand."""
    if not isinstance(a, Tensor):
        a = _scalar_tensor(a, dtype, b)
    if not isinstance(b, Tensor):
        b = _scalar_tensor(b, dtype, a)
    return a, b


def _no_bools(name, dtype, hint=""):
    if dtype == _dtype.bool_:
        raise NotImplementedError(f"\"{name}\" is not implemented for bool tensors{hint}")


# Ops looked up once; calling one goes straight to C++ (no lookup by name, no attribute dict).
_ops = {}


def _op(name):
    if name not in _ops:
        _ops[name] = _C.op(name)
    return _ops[name]


def _scalar_op(name, x, value):
    """The C++ op `name` of tensor x and the number `value` (x already of the result dtype); a
    complex number, which no attribute holds, as a 0-d tensor beside x (add_scalar: add)."""
    if not isinstance(value, numbers.Real):
        return apply(name[:-len("_scalar")], [x, _scalar_tensor(value, x.dtype, x)])[0]
    return Tensor(_op(name).scalar(x._impl, _attr(value)))


def _named(op, name, doc):
    """op, made by a factory, under the public name and doc of the op it is."""
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


def _unary(name, doc, floats=False):
    """A unary op; `floats`: bool inputs are cast to float32 first (integers become float32 in
    the op), as torch's exp, log, ..."""
    unary = _op(name).unary  # the bound method, looked up once

    def op(input):
        x = input._impl if type(input) is Tensor else _impl_of(name, input)
        if floats and _default_float[0] is not _dtype.float32:
            x = _widened(Tensor(x))._impl
        if floats:
            try:  # straight to C++, which refuses bool (ValueError, before anything runs)
                return Tensor(unary(x))
            except ValueError:
                if x.dtype != "bool":
                    raise
            x = cast(input, _dtype.float32)._impl
        return Tensor(unary(x))
    op = _named(op, name, doc)
    # One Tensor taken as it is (of a floating dtype where the op widens the others) in C
    # (_C.tensor_method's "one" and "floating" forms): one call; _numpy_names remakes it over
    # its out= wrapper.
    form = "floating" if floats else "one"
    made = _in_c(form, name, None, op)
    made.remake = functools.partial(_C.tensor_method, form, name, None)
    return made


# ---------------------------------------------------------------------------------------------
# Binary ops. Each takes tensors or numbers (at least one tensor).

def _binary(name, doc, on_bools=None):
    """A binary op computing in the promoted dtype; `on_bools`: the op it is on two bools (or
    None: an error)."""
    handle = _op(name)
    binary = handle.binary  # the bound method, looked up once

    def op(input, other):
        if type(input) is Tensor and type(other) is Tensor:
            # Straight to C++, which refuses (ValueError, before anything runs) differing dtypes
            # and the bools these ops do not take; those are promoted below, where other errors
            # raise again. (The bitwise ops take bools, as on_bools would.)
            try:
                return Tensor(binary(input._impl, other._impl))
            except ValueError:
                pass
        a, b, dtype = _promote(input, other)
        if dtype == _dtype.bool_:
            if on_bools is None:
                _no_bools(name, dtype)
            return on_bools(*_tensors(a, b, dtype))
        a, b = _tensors(a, b, dtype)
        return Tensor(handle.binary(a._impl, b._impl))
    return _named(op, name, doc)


def _with_alpha(name, input, other, alpha):
    """input + alpha * other (sub: input - alpha * other), torch's add/sub with `alpha`: two tensors
    make one op with attribute "alpha" (a fused multiply-add per element, torch's rounding); a
    number operand is scaled first (torch's rule: no floating alpha for integer operands)."""
    floats = [x.dtype.name in _FLOAT_NAMES for x in (input, other) if isinstance(x, Tensor)]
    if isinstance(alpha, Tensor) or not _is_number(alpha):
        raise TypeError(f"{name}(): argument 'alpha' must be a Number, not {_type_name(alpha)}")
    if not any(floats) and not isinstance(other, float) and not isinstance(input, float):
        if not isinstance(alpha, numbers.Integral):
            raise RuntimeError(f"{name}(): for integral input tensors, argument alpha must not be a floating point "
                               "number")
    if isinstance(input, Tensor) and isinstance(other, Tensor) and not isinstance(alpha, complex):
        a, b, dtype = _promote(input, other)
        if dtype != _dtype.bool_:
            a, b = _tensors(a, b, dtype)
            return apply(name, [a, b], {"alpha": _in_half(float(alpha), dtype)})[0]
    return (add if name == "add" else sub)(input, other * alpha)


def _in_half(x, dtype):
    """x rounded to bfloat16 or float16 where dtype is one (as torch's kernels take a scalar in
    the tensor's dtype; the op's kernel sees halves widened to float32); else x."""
    if dtype == _dtype.float16:
        return float(_np.float16(x))
    if dtype == _dtype.bfloat16:  # torch's: to float32, then to nearest even
        bits = int(_np.float32(x).view(_np.uint32))
        if (bits & 0x7F800000) != 0x7F800000:
            bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
        return float(_np.uint32(bits & 0xFFFFFFFF).view(_np.float32))
    return x


def _commutative(name, scalar_name, on_bools, doc, alpha=False):
    """A binary op whose number operand, on either side, becomes the scalar form; with `alpha`,
    it takes torch's `alpha=` keyword (input + alpha * other)."""
    handle = _op(name)
    binary, scalar = handle.binary, _op(scalar_name).scalar  # the bound methods, looked up once
    alpha_allowed = alpha

    # alpha is positional-or-keyword (torch's is keyword-only): a keyword-only default costs
    # every call, alpha or not, a read of the function's keyword defaults.
    def op(input, other, alpha=None):
        if alpha is not None:  # keyword checked first and only once: the plain call pays one test
            if not alpha_allowed:
                raise TypeError(f"{name}() got an unexpected keyword argument 'alpha'")
            if alpha != 1:
                return _with_alpha(name, input, other, alpha)
        # The common cases go straight to C++, which refuses (ValueError, before anything runs)
        # differing dtypes and bools: those are promoted below, where other errors raise again.
        try:
            if type(input) is Tensor:
                if type(other) is Tensor:
                    return Tensor(binary(input._impl, other._impl))
                if type(other) in _PLAIN_NUMBERS:
                    return Tensor(scalar(_widened(input, other)._impl, other))  # C++: integers and a float give float32
            elif type(other) is Tensor and type(input) in _PLAIN_NUMBERS:
                return Tensor(scalar(_widened(other, input)._impl, input))
        except ValueError:
            pass
        a, b, dtype = _promote(input, other)
        if dtype == _dtype.bool_:
            return on_bools(*_tensors(a, b, dtype))
        if not isinstance(b, Tensor):
            return _scalar_op(scalar_name, a, b)
        if not isinstance(a, Tensor):
            return _scalar_op(scalar_name, b, a)
        return Tensor(handle.binary(a._impl, b._impl))
    if not alpha_allowed:  # mul: its signature says (input, other), as torch's
        op.__signature__ = inspect.Signature(list(inspect.signature(op).parameters.values())[:2])
    return _named(op, name, doc)


def _logical(name, doc):
    handle = _op(name)

    def op(input, other):
        """Nonzero is true; any dtypes; a bool result."""
        if not (isinstance(input, Tensor) and isinstance(other, Tensor) and input.dtype == other.dtype):
            input, other, _ = _promote(input, other)
            input, other = _tensors(input, other, _dtype.bool_)
            input, other = _cast_to(input, _dtype.bool_), _cast_to(other, _dtype.bool_)
        return Tensor(handle.binary(input._impl, other._impl))
    return _named(op, name, doc)


logical_and = _logical("logical_and", "input and other, nonzero meaning true, as bool.")
logical_or = _logical("logical_or", "input or other, nonzero meaning true, as bool.")
logical_xor = _logical("logical_xor", "input xor other, nonzero meaning true, as bool.")
add = _commutative("add", "add_scalar", logical_or, "input + alpha * other (on two bools: or).", alpha=True)
mul = _commutative("mul", "mul_scalar", logical_and, "input * other (on two bools: and).")

_NO_BOOL_SUB = (". Subtraction, the `-` operator, with a bool operand is not supported; use the `~` or "
                "`logical_not()` operator to invert a mask, `^` or `logical_xor()` for two bools")


_sub_binary, _add_scalar = _op("sub").binary, _op("add_scalar").scalar


def sub(input, other, alpha=None):
    """input - alpha * other."""
    if alpha is not None and alpha != 1:
        return _with_alpha("sub", input, other, alpha)
    # The common cases go straight to C++, which refuses (ValueError, before anything runs)
    # differing dtypes and bools: those are promoted below, where other errors raise again.
    try:
        if type(input) is Tensor:
            if type(other) is Tensor:
                return Tensor(_sub_binary(input._impl, other._impl))
            if type(other) in _PLAIN_NUMBERS and input._impl.dtype != "bool":  # C++ makes bool - 2.5 float32
                return _C.grad_fn_as(Tensor(_add_scalar(_widened(input, other)._impl, -other)), "SubBackward0", input)
    except ValueError:
        pass
    # torch refuses a bool on either side, whatever the other: 1 - mask would be an int64
    # tensor, not the inverted mask it is often meant to be.
    for x in (input, other):
        _no_bools("sub", x.dtype if isinstance(x, Tensor) else _dtype.bool_ if isinstance(x, bool) else None,
                  _NO_BOOL_SUB)
    a, b, dtype = _promote(input, other)
    if not isinstance(b, Tensor):
        return _C.grad_fn_as(_scalar_op("add_scalar", a, -b), "SubBackward0", input)
    if not isinstance(a, Tensor):
        return _scalar_op("add_scalar", neg(b), a)
    return apply("sub", [a, b])[0]


_div_binary = _op("div").binary
_DIVIDES_EXACTLY = ("float32", "float64")  # the dtypes whose div is the true quotient, as they are


def div(input, other, rounding_mode=None):
    """input / other. rounding_mode None: the exact quotient (integer and bool operands are
    cast to float32 first); "trunc": rounded toward zero; "floor": rounded down (=
    floor_divide)."""
    if rounding_mode is None and type(input) is Tensor:  # the common cases first
        if type(other) in _PLAIN_NUMBERS and input._impl.dtype in _FLOAT_NAMES:
            return Tensor(_op("div_scalar").scalar(input._impl, other))
        if type(other) is Tensor:
            dtype = input._impl.dtype
            if dtype in _DIVIDES_EXACTLY and other._impl.dtype == dtype:
                return Tensor(_div_binary(input._impl, other._impl))
    if rounding_mode == "floor":
        return floor_divide(input, other)
    if rounding_mode not in (None, "trunc"):
        raise _C.OpError(f"div: rounding_mode must be None, 'trunc' or 'floor', got {rounding_mode!r}")
    a, b, dtype = _promote(input, other, floats=rounding_mode is None)
    if rounding_mode == "trunc":
        _no_bools("div", dtype)
        a, b = _tensors(a, b, dtype)
        quotient = apply("div", [a, b])[0]
        return trunc(quotient) if dtype.is_floating_point else quotient
    if isinstance(a, Tensor) and not isinstance(b, Tensor):
        return _scalar_op("div_scalar", a, b)
    return apply("div", list(_tensors(a, b, dtype)))[0]


floor_divide = _binary("floor_divide", "input // other: the quotient rounded down (Python's and PyTorch's //).")


def pow(input, exponent):
    """input ** exponent (torch.pow); either may be a number."""
    if type(input) is Tensor and type(exponent) in _PLAIN_NUMBERS and input._impl.dtype != "bool":
        return Tensor(_op("pow_scalar").scalar(_widened(input, exponent)._impl, exponent))  # C++: float32 for a float
    a, b, dtype = _promote(input, exponent)
    _no_bools("pow", dtype)
    if not isinstance(b, Tensor):
        return _scalar_op("pow_scalar", a, b)
    if not isinstance(a, Tensor):
        if not isinstance(a, numbers.Real):  # a complex base: a 0-d tensor (no attribute holds it)
            return apply("pow", [_scalar_tensor(a, b.dtype, b), b])[0]
        return _scalar_op("rpow_scalar", b, a)
    return apply("pow", [a, b])[0]


maximum = _binary("maximum", "The elementwise maximum; NaN if either is NaN (on two bools: or).", logical_or)
minimum = _binary("minimum", "The elementwise minimum; NaN if either is NaN (on two bools: and).", logical_and)


def _compare(name, doc):
    handle = _op(name)
    binary = handle.binary  # the bound method, looked up once

    def op(input, other):
        if type(input) is Tensor and type(other) is Tensor:
            try:  # straight to C++; differing dtypes are refused there and promoted below
                return Tensor(binary(input._impl, other._impl))
            except ValueError:
                pass
        a, b, dtype = _promote(input, other)
        a, b = _tensors(a, b, dtype)
        return Tensor(handle.binary(a._impl, b._impl))
    return _named(op, name, doc)


eq = _compare("eq", "input == other, as bool.")
ne = _compare("ne", "input != other, as bool.")
lt = _compare("lt", "input < other, as bool.")
le = _compare("le", "input <= other, as bool.")
gt = _compare("gt", "input > other, as bool.")
ge = _compare("ge", "input >= other, as bool.")

def _bits_on_bools(name):
    """A bitwise op on two bool tensors: the op itself (its kernel takes bool)."""
    handle = _op(name)
    return lambda a, b: Tensor(handle.binary(a._impl, b._impl))


bitwise_and = _binary("bitwise_and", "input & other, bit by bit: bool and integer tensors.",
                      _bits_on_bools("bitwise_and"))
bitwise_or = _binary("bitwise_or", "input | other, bit by bit: bool and integer tensors.", _bits_on_bools("bitwise_or"))
bitwise_xor = _binary("bitwise_xor", "input ^ other, bit by bit: bool and integer tensors.",
                      _bits_on_bools("bitwise_xor"))
bitwise_left_shift = _binary("bitwise_left_shift", "input << other on integer tensors, as torch's: bits shifted "
                             "out wrap; a negative or oversized shift gives 0.")
bitwise_right_shift = _binary("bitwise_right_shift", "input >> other on integer tensors, as torch's: arithmetic "
                              "for signed values; a negative or oversized shift gives the sign (0 or -1).")


def _check_condition(name, condition):
    if not isinstance(condition, Tensor):
        raise TypeError(f"{name}: condition must be a meshflow.Tensor, got {_type_name(condition)}")
    if condition.dtype != _dtype.bool_:
        raise RuntimeError(f"{name} expected condition to be a boolean tensor, but got a tensor with dtype "
                           f"{condition.dtype.name}")


def where(condition, input, other):
    """input where condition (a bool tensor) holds, else other; the three broadcast together.
    input and other are tensors or numbers, promoted together (two ints give int64, a float
    float32, two bools bool)."""
    _check_condition("where", condition)
    if type(input) is Tensor and type(other) is Tensor and input._impl.dtype == other._impl.dtype:
        return apply("where", [condition, input, other])[0]
    for x in (input, other):
        if not isinstance(x, Tensor):
            _check_number(x)
    dtype = result_dtype(input, other)
    a = _cast_to(input, dtype) if isinstance(input, Tensor) else _scalar_tensor(input, dtype, condition)
    b = _cast_to(other, dtype) if isinstance(other, Tensor) else _scalar_tensor(other, dtype, condition)
    return apply("where", [condition, a, b])[0]


def masked_fill(input, mask, value):
    """input with `value` (a number or a 0-d tensor, taken in input's dtype) where `mask`, a
    bool tensor broadcast to input's shape, holds."""
    return _C.grad_fn_as(apply("where", masked_fill_inputs(input, mask, value))[0], "MaskedFillBackward0", input,
                         value)


def masked_fill_inputs(input, mask, value):
    """masked_fill's where() inputs [mask, value, input] (masked_fill_ runs where() over
    input's memory): value a 0-d tensor of input's dtype; a global input's mask of its shape
    in its layout."""
    _check_condition("masked_fill", mask)
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError(f"masked_fill only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.ndim} dimension(s)")
        if input.is_global and value.is_local:
            value = value.to_global(placement=input.placement, sbp=[_C.Sbp.broadcast()] * len(input.sbp))
        value = _cast_to(value, input.dtype)
    else:
        _check_number(value)
        value = _filled(value, input)
    return [mask_in_layout_of(mask, input), value, input]


def mask_in_layout_of(mask, x):
    """A global mask of x's shape in x's layout (broadcast where x is partial), so that an
    elementwise write of x (where) converts only the mask; any other mask as it is."""
    if not (x.is_global and mask.is_global and tuple(mask.shape) == tuple(x.shape)):
        return mask
    sbp = tuple(_C.Sbp.broadcast() if s.is_partial else s for s in x.sbp)
    return mask if tuple(mask.sbp) == sbp else mask.to_global(placement=x.placement, sbp=sbp)


# ---------------------------------------------------------------------------------------------
# Unary ops.

neg = _unary("neg", "-input.")
abs = _unary("abs", "|input|.")
relu = _unary("relu", "max(input, 0).")
trunc = _unary("trunc", "input rounded toward zero (integers unchanged).")
exp = _unary("exp", "e ** input; integers and bools give float32.", floats=True)
log = _unary("log", "The natural logarithm; integers and bools give float32.", floats=True)
sqrt = _unary("sqrt", "The square root; integers and bools give float32.", floats=True)
rsqrt = _unary("rsqrt", "1 / sqrt(input); integers and bools give float32.", floats=True)
tanh = _unary("tanh", "The hyperbolic tangent; integers and bools give float32.", floats=True)
sigmoid = _unary("sigmoid", "1 / (1 + exp(-input)); integers and bools give float32.", floats=True)
logical_not = _unary("logical_not", "not input, nonzero meaning true, as bool.")
bitwise_not = _unary("bitwise_not", "~input, bit by bit: not for bool, -input - 1 for integers.")
isnan = _unary("isnan", "Whether each element is NaN, as bool.")
isinf = _unary("isinf", "Whether each element is +inf or -inf, as bool.")
isfinite = _unary("isfinite", "Whether each element is neither infinite nor NaN, as bool.")


def gelu(input, approximate="none"):
    """x * Phi(x) with Phi the standard normal CDF: the exact erf form ('none', torch's
    default; floats only) or torch's tanh approximation 0.5 x (1 + tanh(sqrt(2 / pi) (x +
    0.044715 x^3))) ('tanh', the op gelu_tanh)."""
    if approximate not in ("none", "tanh"):
        raise _C.OpError(f"gelu: approximate={approximate!r}; expected 'none' or 'tanh'")
    return apply("gelu" if approximate == "none" else "gelu_tanh", [input])[0]


def cast(input, dtype):
    """input converted to `dtype` (floats to integers truncate toward zero)."""
    return apply("cast", [input], {"dtype": getattr(_C.DType, _dtype.to_dtype(dtype).name)})[0]


# ---------------------------------------------------------------------------------------------
# Operators and methods.

# ---- Composed of the ops above (so every device, layout and gradient is theirs), as torch.

def clamp(input, min=None, max=None):
    """input limited to [min, max] (either may be None; a number or a tensor). As torch's, number
    bounds are one op (C++ clamp) whose gradient stops at either bound and at NaN; a tensor
    bound shares the gradient at a tie, as maximum / minimum do; NaN stays NaN."""
    if min is None and max is None:
        raise _C.OpError("clamp: at least one of min and max must be given")
    if isinstance(min, Tensor) or isinstance(max, Tensor):  # torch's clamp.Tensor, a number beside one too
        out = input if min is None else maximum(input, min)
        return _C.grad_fn_as(out if max is None else minimum(out, max), "ClampBackward0", input, min, max)
    return _C.grad_fn_as(_bounded("clamp", input, min, max), "ClampBackward1", input)


def _bounded(name, input, min, max):
    """The C++ op `name` (clamp or hardtanh) of input and number bounds, in torch's result
    dtype: clamp's promotes (an integer tensor with a float bound is clamped in the default
    float dtype), hardtanh's is the input's (an integer one's float bounds truncate)."""
    # a real number beside a float tensor, or any beside hardtanh's, keeps its dtype: no _promote's cost
    floating = input.dtype.is_floating_point or name == "hardtanh"
    for bound in (min, max):
        if bound is not None:
            _check_number(bound)
            if not (floating and isinstance(bound, numbers.Real)):
                input = _promote(input, bound)[0]
    attrs = {key: _attr(bound) for key, bound in (("min", min), ("max", max)) if bound is not None}
    return apply(name, [input], attrs)[0]


clip = clamp


def _no_order(name, input):
    if input.dtype.is_complex:
        raise RuntimeError(f"{name} is not supported for complex inputs")


def floor(input):
    """The largest integer value <= input (integers stay as they are)."""
    _no_order("floor", input)
    if not input.dtype.is_floating_point:
        return trunc(input)  # a new tensor of the same values, as torch's (never input itself)
    t = trunc(input)
    return t - cast(lt(input, t), input.dtype)


def ceil(input):
    """The smallest integer value >= input (integers stay as they are)."""
    _no_order("ceil", input)
    if not input.dtype.is_floating_point:
        return trunc(input)  # a new tensor of the same values, as torch's (never input itself)
    t = trunc(input)
    return t + cast(gt(input, t), input.dtype)


remainder = _binary("remainder", "input % other: the remainder with the divisor's sign (Python's and PyTorch's %).")


def silu(input):
    """input * sigmoid(input)."""
    return apply("silu", [input])[0]


@_halves_in_float32("cuda")
def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta x)) / beta, and x itself where beta x > threshold (torch's): the op
    softplus, whose gradient is dy sigmoid(beta x) there."""
    out = apply("softplus", [input], {"beta": float(beta), "threshold": float(threshold)})[0]
    return _C.grad_fn_as(out, "SoftplusBackward0", input)


def lerp(input, end, weight):
    """input + weight * (end - input), rounded as torch's CPU kernel: weight (in the dtype) times
    end - input added to input by one fused multiply-add where |weight| < 0.5, else
    (weight - 1) times it added to end (add's alpha for a number weight, addcmul's for a
    tensor)."""
    floats = (_dtype.float32, _dtype.float64)
    if isinstance(weight, Tensor) and isinstance(input, Tensor) and isinstance(end, Tensor) and \
            input.dtype in floats and end.dtype == input.dtype and weight.dtype == input.dtype:
        small = abs(weight) < 0.5
        return apply("addcmul", [where(small, input, end), where(small, weight, weight - 1), end - input],
                     {"value": 1.0})[0]
    if isinstance(weight, Tensor) or not _is_number(weight) or isinstance(weight, complex) or \
            not (isinstance(input, Tensor) and isinstance(end, Tensor)) or \
            input.dtype not in (_dtype.float32, _dtype.float64):
        return input + weight * (end - input)
    w = float(_np.float32(weight)) if input.dtype == _dtype.float32 else float(weight)
    if -0.5 < w < 0.5:  # (this module's abs is the op's)
        return add(input, end - input, alpha=w)
    # w - 1 is exact in the dtype for 0.5 <= |w| <= 2 (as torch's vector kernel forms it)
    low = float(_np.float32(w) - _np.float32(1)) if input.dtype == _dtype.float32 else w - 1
    return add(end, end - input, alpha=low)


def _array_operand(x, array):
    """A NumPy array meeting tensor x in an operator, as a tensor of the array's dtype (a copy),
    as torch's operators take arrays. Beside a global tensor it is an error: whether the array
    would be the full value or this rank's part is a guess."""
    if x.is_global:
        raise TypeError(f"a numpy.ndarray of shape {array.shape} cannot meet a global tensor in an operator; "
                        "expected a global tensor: mf.tensor(array, placement=..., sbp=...) makes one")
    return _on_device_of(tensor(array), x)


def _operator(f, reflected=False, node=None):
    """A binary operator method. A NumPy array becomes a tensor (_array_operand); for other
    operands that are neither tensors nor numbers Python raises TypeError (and == compares
    them by identity). `node`: torch's node name for the result where f records another
    (2 / x is a multiplication by x's reciprocal in torch)."""
    def method(self, other):
        if type(other) is Tensor or type(other) in _PLAIN_NUMBERS:
            out = f(other, self) if reflected else f(self, other)
        else:
            if isinstance(other, _np.ndarray):
                other = _array_operand(self, other)
            elif not isinstance(other, Tensor) and not isinstance(other, numbers.Complex):  # complex numbers too
                return NotImplemented
            out = f(other, self) if reflected else f(self, other)
        return out if node is None else _C.grad_fn_as(out, node, self, other)
    return method


_REFLECTED_NODES = {"sub": "RsubBackward1", "truediv": "MulBackward0"}  # torch's nodes of 1 - x and 2 / x
for _name, _f in (("add", add), ("sub", sub), ("mul", mul), ("truediv", div), ("floordiv", floor_divide),
                  ("pow", pow), ("mod", remainder)):
    setattr(Tensor, f"__{_name}__", _operator(_f))
    setattr(Tensor, f"__r{_name}__", _operator(_f, reflected=True, node=_REFLECTED_NODES.get(_name)))
# The commonest operators in C: their calls on Tensors and numbers skip the frames above.
for _name, _scalar in (("add", "add_scalar"), ("mul", "mul_scalar")):
    setattr(Tensor, f"__{_name}__", _in_c("binary", _name, _scalar, getattr(Tensor, f"__{_name}__")))
    setattr(Tensor, f"__r{_name}__", _in_c("reflected", _name, _scalar, getattr(Tensor, f"__r{_name}__")))
Tensor.__sub__ = _in_c("subtract", "sub", "add_scalar", Tensor.__sub__)  # x - 1.0: add_scalar of -1.0
Tensor.__rsub__ = _in_c("reflected_subtract", "sub", "add_scalar", Tensor.__rsub__)  # 1.0 - x: of -x and 1.0
Tensor.__truediv__ = _in_c("divide", "div", "div_scalar", Tensor.__truediv__)  # float32 and float64 only
Tensor.__pow__ = _in_c("binary", "pow", "pow_scalar", Tensor.__pow__)
for _name, _f in (("eq", eq), ("ne", ne), ("lt", lt), ("le", le), ("gt", gt), ("ge", ge)):
    setattr(Tensor, f"__{_name}__", _in_c("compare", _name, None, _operator(_f)))  # common calls in C
for _name, _f in (("and", bitwise_and), ("or", bitwise_or), ("xor", bitwise_xor), ("lshift", bitwise_left_shift),
                  ("rshift", bitwise_right_shift)):
    setattr(Tensor, f"__{_name}__", _operator(_f))
    setattr(Tensor, f"__r{_name}__", _operator(_f, reflected=True))
Tensor.__neg__ = neg
Tensor.__abs__ = abs
Tensor.__invert__ = bitwise_not
for _f in (add, sub, mul, div, floor_divide, pow, maximum, minimum, eq, ne, lt, le, gt, ge, neg, abs, relu, trunc,
           exp, log, sqrt, rsqrt, tanh, sigmoid, clamp, clip, floor, ceil, remainder, lerp, logical_and, logical_or,
           logical_xor, logical_not, bitwise_and, bitwise_or, bitwise_xor, bitwise_not, isnan, isinf, isfinite,
           masked_fill):
    setattr(Tensor, _f.__name__, _f)
Tensor.where = lambda self, condition, other: where(condition, self, other)
Tensor.clip = clip  # clamp's other name (the loop above names methods by __name__, "clamp")


def _shift_in_place(f, name):
    def method(self, other):
        from ._inplace import _inplace  # it imports this module
        return _inplace(self, lambda: f(self, other), name)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"In place: self takes self.{f.__name__}(other)."
    return method


for _f, _short in ((bitwise_left_shift, "lshift"), (bitwise_right_shift, "rshift")):
    setattr(Tensor, _f.__name__, _f)
    setattr(Tensor, _f.__name__ + "_", _shift_in_place(_f, _f.__name__ + "_"))
    setattr(Tensor, f"__i{_short}__", _shift_in_place(_f, f"__i{_short}__"))
Tensor.float = lambda self: self.to(_dtype.float32)
Tensor.double = lambda self: self.to(_dtype.float64)
Tensor.int = lambda self: self.to(_dtype.int32)
Tensor.long = lambda self: self.to(_dtype.int64)
Tensor.bool = lambda self: self.to(_dtype.bool_)
Tensor.half = lambda self: self.to(_dtype.float16)
Tensor.bfloat16 = lambda self: self.to(_dtype.bfloat16)
Tensor.byte = lambda self: self.to(_dtype.uint8)
Tensor.char = lambda self: self.to(_dtype.int8)
Tensor.short = lambda self: self.to(_dtype.int16)

# Tensor.type's names, as torch's ("torch.FloatTensor") with this package's name (OneFlow's
# "oneflow.FloatTensor").
_TYPE_NAMES = {"float32": "FloatTensor", "float64": "DoubleTensor", "int32": "IntTensor", "int64": "LongTensor",
               "bfloat16": "BFloat16Tensor", "bool": "BoolTensor", "float16": "HalfTensor", "uint8": "ByteTensor",
               "int8": "CharTensor", "int16": "ShortTensor"}


def _type(self, dtype=None):
    """Without a dtype, the tensor's type name ("meshflow.FloatTensor"; a GPU tensor's
    "meshflow.cuda.FloatTensor"); with one (a dtype or such a name), the tensor cast to it."""
    if dtype is None:
        where_ = "" if self.is_global or self._impl.device_type == "cpu" else f"{self._impl.device_type}."
        return f"meshflow.{where_}{_TYPE_NAMES[self.dtype.name]}"
    if isinstance(dtype, str) and dtype.endswith("Tensor"):
        names = {v: k for k, v in _TYPE_NAMES.items()}
        short = dtype.rsplit(".", 1)[-1]
        if short not in names:
            raise ValueError(f"type: unknown type name {dtype!r}; expected one of "
                             f"{', '.join('meshflow.' + v for v in _TYPE_NAMES.values())}")
        dtype = names[short]
    return self.to(_dtype.to_dtype(dtype))


Tensor.type = _type
del _name, _f
