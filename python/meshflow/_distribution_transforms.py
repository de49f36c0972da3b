"""torch.distributions.transforms' elementwise transforms, as TransformedDistribution uses
them: `TanhTransform`, `AffineTransform`, `ExpTransform`, `SigmoidTransform`, each with
__call__, inv and log_abs_det_jacobian as torch's. With cache_size=1 a transform remembers
its last (x, y), so inv(y) of the y it returned is that x (no atanh of a rounded 1.0, as in
SAC's log_prob of its own sample). Not thread-safe with a cache: one transform per thread."""
import math

from . import _distribution_constraints as constraints

__all__ = ["Transform", "TanhTransform", "AffineTransform", "ExpTransform", "SigmoidTransform"]


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

    def inv(self, y):
        if self._cached is not None and self._cached[1] is y:
            return self._cached[0]
        x = self._inverse(y)
        if self._cache_size:
            self._cached = (x, y)
        return x

    def __repr__(self):
        return f"{type(self).__name__}()"


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
