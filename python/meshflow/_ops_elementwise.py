"""Elementwise ops with NumPy broadcasting: mf.add, sub, mul, div and the operators.

A Python number operand becomes a tensor of the other operand's dtype (a broadcast global
tensor on its placement when that operand is global), except for the fast scalar forms
x + c and x * c.
"""
import numbers

import numpy as _np

from . import _C
from ._tensor import Tensor, apply, tensor


def _as_tensor(value, like):
    """`value` as a tensor that can meet `like` in an op."""
    if isinstance(value, Tensor):
        return value
    if not isinstance(value, numbers.Number):
        raise TypeError(f"expected a meshflow.Tensor or a number, got {type(value).__name__}")
    array = _np.asarray(value, dtype=like.dtype.numpy)
    if like.is_global:
        placement = like.placement
        return tensor(array, placement=placement, sbp=[_C.Sbp.broadcast()] * len(placement.hierarchy))
    return tensor(array)


def _binary(name):
    def op(a, b):
        if not isinstance(a, Tensor):
            a = _as_tensor(a, b)
        return apply(name, [a, _as_tensor(b, a)])[0]
    op.__name__ = name
    return op


add = _binary("add")
sub = _binary("sub")
mul = _binary("mul")
div = _binary("div")


def _with_scalar(name, tensor_op):
    def op(x, other):
        if isinstance(other, numbers.Number) and not isinstance(other, bool):
            return apply(name, [x], {"value": float(other)})[0]
        return tensor_op(x, other)
    return op


Tensor.__add__ = _with_scalar("add_scalar", add)
Tensor.__radd__ = Tensor.__add__
Tensor.__sub__ = lambda x, other: (apply("add_scalar", [x], {"value": -float(other)})[0]
                                   if isinstance(other, numbers.Number) else sub(x, other))
Tensor.__rsub__ = lambda x, other: sub(_as_tensor(other, x), x)
Tensor.__mul__ = _with_scalar("mul_scalar", mul)
Tensor.__rmul__ = Tensor.__mul__
Tensor.__truediv__ = lambda x, other: (apply("mul_scalar", [x], {"value": 1.0 / other})[0]
                                       if isinstance(other, numbers.Number) and x.dtype.name.startswith("float")
                                       else div(x, other))
Tensor.__rtruediv__ = lambda x, other: div(_as_tensor(other, x), x)
Tensor.__neg__ = lambda x: apply("mul_scalar", [x], {"value": -1.0})[0]
Tensor.add, Tensor.sub, Tensor.mul, Tensor.div = add, sub, mul, div
