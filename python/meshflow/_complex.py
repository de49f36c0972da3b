"""Complex tensors (complex64 = cfloat, complex128 = cdouble), as torch's: complex, polar,
real, imag, view_as_real, view_as_complex, conj, angle, is_complex, resolve_conj (and is_conj,
resolve_neg, is_neg: meshflow's conj computes values, it sets no lazy bit), and the Tensor methods
and properties of those names (.real, .imag, .conj(), .angle(), .cfloat(), .cdouble()).

The ops are C++'s (meshflow/ops/complex.cc); arithmetic, the elementwise math and the
reductions of complex tensors are the usual ops, and an op without complex kernels refuses
them naming itself. .real, .imag, view_as_real and view_as_complex (the functions and the
Tensor properties) are views, as torch's: a write into one (x.real.mul_(2), x.imag[0] = 1,
view_as_real(x)[..., 0] += 1) writes the tensor it came from, and a write to that tensor shows
in them (_inplace's view records: each is taken again by its op and put back by the inverse
one, so autograd records the write as any op).
"""
import math

from . import _dtype
from ._inplace import _NO_KWARGS, _ViewKind, _link
from ._tensor import Tensor, apply

__all__ = ["complex", "polar", "real", "imag", "view_as_real", "view_as_complex", "conj", "conj_physical",
           "angle", "is_complex", "resolve_conj", "resolve_neg", "is_conj", "is_neg"]


def _expect_tensor(name, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{name}(): argument 'input' must be Tensor, not {type(x).__name__}")


def complex(real, imag):  # noqa: A001 (torch.complex)
    """real + i imag, of float32 or float64 tensors of one dtype (broadcast)."""
    return apply("complex", [real, imag])[0]


def polar(abs, angle):  # noqa: A002 (torch's argument names)
    """abs (cos angle + i sin angle)."""
    return apply("polar", [abs, angle])[0]


def is_complex(input):
    return input.dtype.is_complex


def _op(name):
    return lambda base: apply(name, [base])[0]


# How each view is taken again from its base, and how a new value of it is put back: the
# base with that part replaced (real and imag keep the other part; the two reinterpreting
# views are each other's inverse).
_VIEWS = {
    "real": _ViewKind(_op("real"), lambda base, value: complex(value, apply("imag", [base])[0])),
    "imag": _ViewKind(_op("imag"), lambda base, value: complex(apply("real", [base])[0], value)),
    "view_as_real": _ViewKind(_op("view_as_real"), lambda base, value: apply("view_as_complex", [value])[0]),
    "view_as_complex": _ViewKind(_op("view_as_complex"), lambda base, value: apply("view_as_real", [value])[0]),
}


def _view(name, input):
    kind = _VIEWS[name]
    out = kind.raw(input)
    _link(input, out, kind, (), _NO_KWARGS)
    return out


def real(input):
    """The real part, a view (a real tensor: itself)."""
    _expect_tensor("real", input)
    return _view("real", input) if input.dtype.is_complex else input


def imag(input):
    """The imaginary part of a complex tensor, a view."""
    _expect_tensor("imag", input)
    if not input.dtype.is_complex:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return _view("imag", input)


def view_as_real(input):
    """A complex tensor (...) as float (..., 2): real and imaginary parts, a view."""
    _expect_tensor("view_as_real", input)
    if not input.dtype.is_complex:
        raise RuntimeError("view_as_real is only supported for complex tensors")
    return _view("view_as_real", input)


def view_as_complex(input):
    """A float tensor (..., 2) as complex (...), a view."""
    _expect_tensor("view_as_complex", input)
    return _view("view_as_complex", input)


def conj(input):
    """The complex conjugate (a real tensor: itself)."""
    return apply("conj", [input])[0] if input.dtype.is_complex else input


conj_physical = conj


def resolve_conj(input):
    """input itself: meshflow's conj() computes the conjugate values (torch's sets a lazy
    conjugate bit, which this resolves), so no tensor is left to resolve."""
    return input


def resolve_neg(input):
    """input itself: meshflow has no lazy negative bit (torch's, set by conj of an imaginary view)."""
    return input


def is_conj(input):
    """False: meshflow's conj() computes the conjugate values, it sets no lazy bit."""
    return False


def is_neg(input):
    """False: meshflow has no lazy negative bit."""
    return False


def angle(input):
    """The argument atan2(imag, real); of a real tensor, pi where negative and 0 elsewhere (NaN
    stays NaN), as torch's."""
    if input.dtype.is_complex:
        return apply("angle", [input])[0]
    from ._ops_elementwise import where
    x = input if input.dtype.is_floating_point else input.to(_dtype.float32)
    return where(x < 0, math.pi, where(x != x, x, 0.0))


def _install():
    for name in ("conj", "conj_physical", "angle", "is_complex", "resolve_conj", "resolve_neg", "is_conj", "is_neg"):
        setattr(Tensor, name, globals()[name])
    Tensor.real = property(real, _set_real)
    Tensor.imag = property(imag, _set_imag)
    Tensor.cfloat = _cfloat
    Tensor.cdouble = _cdouble


def _write_part(part, value):
    """x.real = value and x.imag = value (torch's setters): a tensor or a number."""
    if isinstance(value, Tensor):
        part.copy_(value)
    else:
        part.fill_(value)


def _set_real(self, value):
    _write_part(real(self), value)


def _set_imag(self, value):
    _write_part(imag(self), value)


def _cfloat(self):
    """self as complex64."""
    return self.to(_dtype.complex64)


def _cdouble(self):
    """self as complex128."""
    return self.to(_dtype.complex128)


_install()
