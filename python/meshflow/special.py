"""torch.special: the special functions meshflow has, under torch.special's names."""
from ._ops_elementwise import sigmoid as expit
from ._ops_math import digamma, erf, erfc, erfinv, expm1, exp2, i0, lgamma as gammaln, log1p, polygamma, round
from ._ops_elementwise import _unary
from ._ops_math import _float_binary, mvlgamma as _mvlgamma
from ._ops_port import xlogy
from ._ops_reduce import logsumexp
from ._api import logit
from ._function import Function as _Function
from ._tensor import Tensor as _Tensor

__all__ = ["expit", "logit", "erf", "erfc", "erfinv", "expm1", "exp2", "log1p", "round", "xlogy", "logsumexp",
           "softmax", "log_softmax", "sinc", "entr", "xlog1py", "ndtr", "gammaln", "digamma", "psi", "polygamma",
           "multigammaln", "zeta", "i0", "i0e", "i1", "i1e", "ndtri", "log_ndtr", "erfcx", "bessel_j0",
           "bessel_j1", "spherical_bessel_j0", "gammainc", "gammaincc"]

psi = digamma


def softmax(input, dim, *, dtype=None):
    return (input if dtype is None else input.to(dtype)).softmax(dim)


def log_softmax(input, dim, *, dtype=None):
    return (input if dtype is None else input.to(dtype)).log_softmax(dim)


def sinc(input):
    return input.sinc()


def entr(input):
    """-x log x for x > 0, 0 at 0, -inf below; the gradient is torch's -(1 + log x) everywhere
    (inf at 0, NaN below)."""
    return _Entr.apply(input)


class _Entr(_Function):
    @staticmethod
    def forward(ctx, input):
        from ._ops_elementwise import where
        ctx.save_for_backward(input)
        safe = where(input > 0, input, 1.0)
        return where(input > 0, -input * safe.log(), where(input == 0, 0.0, float("-inf")))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return -grad * (1 + x.log())


def xlog1py(input, other):
    """input * log1p(other), 0 where input is 0 (unless other is NaN), as torch's."""
    from ._ops_port import _x_times_log
    return _x_times_log(input, other, -1.0, "log1p")


def ndtr(input):
    return 0.5 * (1 + erf(input * 0.7071067811865476))



def multigammaln(input, p):
    return _mvlgamma(input, p)


zeta = _float_binary("zeta", "The Hurwitz zeta function sum over k >= 0 of (k + other)^-input, for any real "
                     "input (inf at 1, NaN below; Cephes', as torch's); integers give float32.", True)
gammainc = _float_binary("gammainc", "The regularized lower incomplete gamma function P(input, other); integers "
                         "give float32.", True)
gammaincc = _float_binary("gammaincc", "The regularized upper incomplete gamma function 1 - P(input, other); "
                          "integers give float32.", True)
# torch's other spellings of the two: torch.igamma / torch.igammac and the Tensor methods
TOP_LEVEL = {"igamma": gammainc, "igammac": gammaincc}
for _name, _f in TOP_LEVEL.items():
    setattr(_Tensor, _name, _f)


i0e = _unary("i0e", "exp(-|x|) i0(x); integers give float32.", floats=True)
i1 = _unary("i1", "The modified Bessel function of the first kind of order 1; integers give float32.", floats=True)
i1e = _unary("i1e", "exp(-|x|) i1(x); integers give float32.", floats=True)
erfcx = _unary("erfcx", "erfc(x) exp(x^2), without overflow for large x; integers give float32.", floats=True)
bessel_j0 = _unary("bessel_j0", "The Bessel function of the first kind of order 0; integers give float32.", floats=True)
bessel_j1 = _unary("bessel_j1", "The Bessel function of the first kind of order 1; integers give float32.", floats=True)


def spherical_bessel_j0(input):
    """sin(x) / x, 1 at 0; integers give float32."""
    from ._ops_elementwise import where
    from . import _dtype
    x = input if input.dtype.is_floating_point else input.to(_dtype.float32)
    zero = x == 0
    safe = where(zero, 1.0, x)  # so that the gradient at 0 is 0, not NaN
    return where(zero, 1.0, safe.sin() / safe).to(x.dtype)


def ndtri(input):
    """The inverse of ndtr: sqrt(2) erfinv(2 p - 1)."""
    return erfinv(2 * input - 1) * 1.4142135623730951


def log_ndtr(input):
    """log(ndtr(x)), as log(erfc(-x / sqrt(2)) / 2) (exact until erfc underflows, below about
    -37 in float64 and -13 in float32, where torch's asymptotic form keeps going)."""
    return (erfc(-input * 0.7071067811865476) * 0.5).log()
