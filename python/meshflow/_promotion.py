"""PyTorch's type promotion (torch.result_type, torch.promote_types), in one place: every
binary elementwise op takes its dtype from `result_dtype`.

Dtypes fall in categories bool < integer < floating. Operands come in three priorities:
tensors with dims, 0-d tensors, Python numbers. Within a priority the dtypes promote
(promote_types); across priorities the higher one wins unless a lower one is of a higher
category, which then promotes with it (int32 tensor + float64 0-d tensor -> float64; int32
tensor + 2.5 -> float32, the default float dtype: a Python float counts as it, an int as
int64 and a bool as bool). So float32 + float64 -> float64, int32 + int64 -> int64,
bool + int tensor -> that int, bfloat16 + float32 -> float32, bfloat16 + int64 -> bfloat16,
uint8 + int8 -> int16 (the least signed type holding both), uint8 tensor + 300 -> uint8.
Complex is the category above floating: float32 + complex64 -> complex64, float64 + complex64
-> complex128 (the wider parts), float32 tensor + 1j -> complex64 (a Python complex counts as
the default float dtype's complex).
"""
import numbers

import numpy as _np

from . import _dtype

__all__ = ["result_type", "promote_types", "get_default_dtype", "set_default_dtype", "can_cast"]

_BOOL, _INT, _FLOAT, _COMPLEX = 0, 1, 2, 3
# Integers and floats by width: within a category the wider wins.
_RANK = {"bool": 0, "uint8": 1, "int8": 1, "int16": 2, "int32": 3, "int64": 4, "float16": 5, "bfloat16": 5,
         "float32": 6, "float64": 7, "complex64": 8, "complex128": 9}


def _category(d):
    if d.is_complex:
        return _COMPLEX
    return _BOOL if d.name == "bool" else _FLOAT if d.name in ("float16", "bfloat16", "float32", "float64") else _INT


_default = [_dtype.float32]  # the process's default float dtype (set_default_dtype), one for every thread as torch's


def get_default_dtype():
    """The dtype Python floats, creation ops and modules' parameters take by default
    (torch.get_default_dtype): float32 unless set_default_dtype changed it."""
    return _default[0]


def set_default_dtype(d):
    """Makes `d` (float32 or float64) the default float dtype, as torch.set_default_dtype:
    creation ops (zeros, rand, arange of floats, tensor of Python floats, ...), modules'
    parameters and Python floats in type promotion take it."""
    d = _dtype.to_dtype(d)
    if d.name not in ("float32", "float64"):
        raise TypeError(f"set_default_dtype: only float32 and float64 can be the default dtype, got {d.name}")
    _default[0] = d
    tell_creation_dtype()


def tell_creation_dtype():
    """Hands zeros(3), ones(3) and empty(3) in C (_C.creation_function) their dtype: the default
    dtype while creation ops run on the host by default; under another default device, none
    (their Python places them)."""
    from . import _C, _device
    _C.set_creation_dtype(None if _device.default is not None else _default[0].name)


def promote_types(type1, type2):
    """The smallest dtype both convert to without leaving their category (torch.promote_types)."""
    a, b = _dtype.to_dtype(type1), _dtype.to_dtype(type2)
    if a == b:
        return a
    ca, cb = _category(a), _category(b)
    if _COMPLEX in (ca, cb):  # the complex dtype whose parts hold both
        wide = any(d.name in ("float64", "complex128") for d in (a, b))
        return _dtype.complex128 if wide else _dtype.complex64
    if ca != cb:
        return a if ca > cb else b
    if _RANK[a.name] == _RANK[b.name]:  # float16 and bfloat16, uint8 and int8: neither holds the other
        return _dtype.float32 if ca == _FLOAT else _dtype.int16
    return a if _RANK[a.name] > _RANK[b.name] else b


def _number_dtype(value):
    if isinstance(value, (bool, _np.bool_)):
        return _dtype.bool_
    if isinstance(value, numbers.Integral):
        return _dtype.int64
    if isinstance(value, numbers.Real):
        return get_default_dtype()
    if isinstance(value, numbers.Complex):
        return _dtype.complex_of(get_default_dtype())
    raise TypeError(f"expected a meshflow.Tensor or a number, got {type(value).__name__}")


def _combine(higher, lower):
    """c10's combine_categories: the higher priority's dtype unless the lower one's category
    is higher (or the higher is bool)."""
    if higher is None:
        return lower
    if lower is None:
        return higher
    if _category(higher) == _BOOL or _category(lower) > _category(higher):
        return promote_types(higher, lower)
    return higher


def result_dtype(*operands):
    """The dtype of a binary (or n-ary) elementwise op on `operands`: tensors and numbers."""
    from ._tensor import Tensor
    dims = zero = numbers_ = None
    for x in operands:
        if isinstance(x, Tensor):
            d = x.dtype
            if x.ndim:
                dims = d if dims is None else promote_types(dims, d)
            else:
                zero = d if zero is None else promote_types(zero, d)
        else:
            d = _number_dtype(x)
            numbers_ = d if numbers_ is None else promote_types(numbers_, d)
    return _combine(dims, _combine(zero, numbers_))


def result_type(tensor, other):
    """torch.result_type: the dtype an arithmetic op on the two (tensors or numbers) gives."""
    return result_dtype(tensor, other)


def can_cast(from_, to):
    """torch.can_cast: whether casting keeps the category or moves it up (bool -> int ->
    float), never down."""
    return _category(_dtype.to_dtype(from_)) <= _category(_dtype.to_dtype(to))
