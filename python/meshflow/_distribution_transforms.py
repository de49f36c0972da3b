"""torch.distributions.transforms' elementwise transforms, as TransformedDistribution uses
them: `TanhTransform`, `AffineTransform`, `ExpTransform`, `SigmoidTransform`,
`SoftplusTransform`, `PowerTransform`, and `ComposeTransform` of several, each with __call__,
inv (the inverse transform, itself a Transform: `t.inv(y)` is x, `t.inv.inv` is t) and
log_abs_det_jacobian as torch's. With cache_size=1 a transform remembers its last (x, y), so
inv(y) of the y it returned is that x (no atanh of a rounded 1.0, as in SAC's log_prob of its
own sample). Not thread-safe with a cache: one transform per thread."""
import math

from . import _distribution_constraints as constraints

__all__ = ["Transform", "TanhTransform", "AffineTransform", "ExpTransform", "SigmoidTransform", "SoftplusTransform",
           "PowerTransform", "ComposeTransform"]


def _softplus(x):
    from .nn.functional import softplus
    return softplus(x)


class Transform:
    """y = f(x), with inv and log |df/dx|; cache_size 0 or 1; `domain` and `codomain` the
    constraints x and y meet, as torch's."""

    sign = 1
    domain = constraints.real
    codomain = constraints.real

    def __init__(self, cache_size=0):
        if cache_size not in (0, 1):
            raise ValueError(f"cache_size must be 0 or 1, got {cache_size}")
        self._cache_size, self._cached = cache_size, None

    def __call__(self, x):
        y = self._call(x)
        if self._cache_size:
            self._cached = (x, y)
        return y

    @property
    def inv(self):
        """The inverse transform (torch's `t.inv`): t.inv(y) is x."""
        return _InverseTransform(self)

    def _inv_call(self, y):
        if self._cached is not None and self._cached[1] is y:
            return self._cached[0]
        x = self._inverse(y)
        if self._cache_size:
            self._cached = (x, y)
        return x

    def __repr__(self):
        return f"{type(self).__name__}()"


class _InverseTransform(Transform):
    """x = t^-1(y), sharing t's cache; its log |det J| is minus t's."""

    def __init__(self, transform):
        super().__init__(0)
        self._inv = transform

    sign = property(lambda self: self._inv.sign)
    domain = property(lambda self: self._inv.codomain)
    codomain = property(lambda self: self._inv.domain)

    @property
    def inv(self):
        return self._inv

    def __call__(self, y):
        return self._inv._inv_call(y)

    def _inverse(self, x):
        return self._inv(x)

    def log_abs_det_jacobian(self, x, y):
        return -self._inv.log_abs_det_jacobian(y, x)

    def __repr__(self):
        return f"_InverseTransform({self._inv!r})"


class TanhTransform(Transform):
    """y = tanh(x); log |dy/dx| = 2 (log 2 - x - softplus(-2x)), torch's stable form."""

    codomain = constraints.interval(-1.0, 1.0)

    def _call(self, x):
        return x.tanh()

    def _inverse(self, y):
        return 0.5 * (y.log1p() - (-y).log1p())

    def log_abs_det_jacobian(self, x, y):
        return 2.0 * (math.log(2.0) - x - _softplus(-2.0 * x))


class AffineTransform(Transform):
    """y = loc + scale * x."""

    def __init__(self, loc, scale, event_dim=0, cache_size=0):
        super().__init__(cache_size)
        self.loc, self.scale, self.event_dim = loc, scale, event_dim

    def _call(self, x):
        return self.loc + self.scale * x

    def _inverse(self, y):
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x, y):
        from ._ops_creation import full_like
        scale = self.scale
        out = scale.abs().log().expand(*x.shape) if hasattr(scale, "abs") else full_like(x, math.log(abs(scale)))
        return out.sum(tuple(range(-self.event_dim, 0))) if self.event_dim else out


class ExpTransform(Transform):
    """y = exp(x)."""

    codomain = constraints.positive

    def _call(self, x):
        return x.exp()

    def _inverse(self, y):
        return y.log()

    def log_abs_det_jacobian(self, x, y):
        return x


class SigmoidTransform(Transform):
    """y = sigmoid(x)."""

    codomain = constraints.unit_interval

    def _call(self, x):
        return x.sigmoid()

    def _inverse(self, y):
        from ._api import finfo
        info = finfo(y.dtype)
        y = y.clamp(min=info.tiny, max=1.0 - info.eps)  # torch's: a rounded 0 or 1 stays finite
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x, y):
        return -_softplus(-x) - _softplus(x)


class SoftplusTransform(Transform):
    """y = log(1 + exp(x)); log |dy/dx| = -softplus(-x)."""

    codomain = constraints.positive

    def _call(self, x):
        return _softplus(x)

    def _inverse(self, y):
        return (-y).expm1().neg().log() + y

    def log_abs_det_jacobian(self, x, y):
        return -_softplus(-x)


class PowerTransform(Transform):
    """y = x ** exponent on positive x; log |dy/dx| = log |exponent * y / x|."""

    domain = constraints.positive
    codomain = constraints.positive

    def __init__(self, exponent, cache_size=0):
        super().__init__(cache_size)
        self.exponent = exponent

    def _call(self, x):
        return x.pow(self.exponent)

    def _inverse(self, y):
        return y.pow(1 / self.exponent)

    def log_abs_det_jacobian(self, x, y):
        return (self.exponent * y / x).abs().log()


class ComposeTransform(Transform):
    """parts applied in order; its inverse is the parts' inverses in reverse order, its log
    |det J| the sum of the parts' at the points each part sees (torch's, for elementwise
    parts)."""

    def __init__(self, parts, cache_size=0):
        super().__init__(cache_size)
        self.parts = list(parts)

    sign = property(lambda self: math.prod(p.sign for p in self.parts))
    domain = property(lambda self: self.parts[0].domain if self.parts else constraints.real)
    codomain = property(lambda self: self.parts[-1].codomain if self.parts else constraints.real)

    def _call(self, x):
        for part in self.parts:
            x = part(x)
        return x

    def _inverse(self, y):
        for part in reversed(self.parts):
            y = part.inv(y)
        return y

    def log_abs_det_jacobian(self, x, y):
        if not self.parts:
            from ._ops_creation import zeros_like
            return zeros_like(x)
        total = 0.0
        for part in self.parts[:-1]:
            following = part(x)
            total = total + part.log_abs_det_jacobian(x, following)
            x = following
        return total + self.parts[-1].log_abs_det_jacobian(x, y)

    def __repr__(self):
        return "ComposeTransform(\n    " + ",\n    ".join(repr(p) for p in self.parts) + "\n)"
