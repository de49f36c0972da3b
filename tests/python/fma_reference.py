"""The fused multiply-add reference of the Python suites: a * b + c rounded once to the arrays'
dtype (float32 or float64), computed exactly in fractions, independent of meshflow's kernels
and of the machine's FMA instructions (torch's CPU kernels round add with alpha, addcmul and
lerp so)."""
from fractions import Fraction

import numpy as np


def fused_multiply_add(a, b, c):
    """a * b + c elementwise (broadcast), each element rounded once, to nearest, ties to even."""
    a, b, c = np.broadcast_arrays(a, b, c)
    dtype = np.result_type(a, b, c)

    def one(x, y, z):
        exact = Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))
        near = dtype.type(float(exact))  # within an ulp: the nearest is it or a neighbour
        candidates = (near, np.nextafter(near, dtype.type(np.inf)), np.nextafter(near, dtype.type(-np.inf)))
        return min(candidates, key=lambda v: (abs(Fraction(float(v)) - exact), int(v.view(f"u{v.itemsize}")) & 1))
    return np.frompyfunc(one, 3, 1)(a, b, c).astype(dtype)
