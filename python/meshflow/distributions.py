"""torch.distributions' everyday families, as policy-gradient and VAE code uses them:
Categorical, Bernoulli, Normal, Uniform (batch_shape, event_shape, sample / rsample,
log_prob, entropy, mean, variance, probs / logits) and kl_divergence between two of the same
family. Log-probabilities and entropies are torch's formulas, composed of meshflow ops (so
they have gradients and run on global tensors); samples come from meshflow's generator
(`generator=` too), so their values differ from torch's, as every random op's."""
import math

from ._ops_creation import rand, randn
from ._ops_elementwise import where
from ._ops_random import multinomial
from ._tensor import Tensor, no_grad, tensor

__all__ = ["Distribution", "Categorical", "Bernoulli", "Normal", "Uniform", "kl_divergence"]


def _as_tensor(value):
    return value if isinstance(value, Tensor) else tensor(float(value))


def _eps(t):
    from ._api import finfo
    return finfo(t.dtype).eps


def _shape(sample_shape):
    return tuple(sample_shape) if not isinstance(sample_shape, int) else (sample_shape,)


class Distribution:
    """What every family has: batch_shape, event_shape, sample (no gradient), stddev."""

    has_rsample = False

    def __init__(self, batch_shape=(), event_shape=(), validate_args=None):
        from ._api import Size
        self.batch_shape, self.event_shape = Size(batch_shape), Size(event_shape)

    def sample(self, sample_shape=()):
        with no_grad():
            return self.rsample(sample_shape) if self.has_rsample else self._sample(_shape(sample_shape))

    @property
    def stddev(self):
        return self.variance.sqrt()

    def __repr__(self):
        return f"{type(self).__name__}()"


class Categorical(Distribution):
    """Classes 0..K-1 with `probs` (normalized over the last dim) or `logits` (log-softmaxed)."""

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            self.probs = probs / probs.sum(-1, keepdim=True)
            eps = _eps(self.probs)
            self.logits = self.probs.clamp(eps, 1 - eps).log()  # torch's probs_to_logits
        else:
            self.logits = logits - logits.logsumexp(-1, keepdim=True)
            self.probs = self.logits.softmax(-1)
        super().__init__(tuple(self.probs.shape[:-1]))

    def _sample(self, shape):
        k = self.probs.shape[-1]
        flat = self.probs.reshape(-1, k)
        n = math.prod(shape)
        draws = multinomial(flat, max(n, 1), replacement=True)[:, :n]  # [batch, n]
        return draws.t().reshape(*shape, *self.batch_shape)

    def log_prob(self, value):
        value = value.long()
        logits = self.logits.expand(*value.shape, self.logits.shape[-1]) if value.ndim >= self.logits.ndim else \
            self.logits
        return logits.gather(-1, value.unsqueeze(-1)).squeeze(-1)

    def entropy(self):
        return -(self.logits * self.probs).sum(-1)

    @property
    def mean(self):
        raise NotImplementedError("Categorical has no mean (torch's is NaN)")


class Bernoulli(Distribution):
    """0/1 with `probs` or `logits` (the log-odds)."""

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            self.probs = _as_tensor(probs)
            p = self.probs.clamp(_eps(self.probs), 1 - _eps(self.probs))
            self.logits = p.log() - (-p).log1p()
        else:
            self.logits = _as_tensor(logits)
            self.probs = self.logits.sigmoid()
        super().__init__(tuple(self.probs.shape))

    def _sample(self, shape):
        return (rand(*shape, *self.batch_shape) < self.probs).to(self.probs.dtype)

    def log_prob(self, value):
        # -BCE with logits: value * logits - softplus(logits), computed stably.
        return value * self.logits - (self.logits.clamp(min=0) + (-self.logits.abs()).exp().log1p())

    def entropy(self):
        return -(self.probs * self.logits - (self.logits.clamp(min=0) + (-self.logits.abs()).exp().log1p()))

    @property
    def mean(self):
        return self.probs

    @property
    def variance(self):
        return self.probs * (1 - self.probs)


class Normal(Distribution):
    """Gaussian with `loc` and `scale`; rsample is reparameterized (loc + scale * eps)."""

    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = _as_tensor(loc), _as_tensor(scale)
        shape = (self.loc + self.scale).shape
        super().__init__(tuple(shape))

    def rsample(self, sample_shape=()):
        eps = randn(*_shape(sample_shape), *self.batch_shape, dtype=self.loc.dtype)
        return self.loc + eps * self.scale

    def log_prob(self, value):
        var = self.scale ** 2
        return -((value - self.loc) ** 2) / (2 * var) - self.scale.log() - math.log(math.sqrt(2 * math.pi))

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + self.scale.log() + self.loc * 0

    def cdf(self, value):
        return 0.5 * (1 + ((value - self.loc) / (self.scale * math.sqrt(2))).erf())

    @property
    def mean(self):
        return self.loc + self.scale * 0

    @property
    def variance(self):
        return self.scale ** 2 + self.loc * 0


class Uniform(Distribution):
    """Uniform on [low, high)."""

    has_rsample = True

    def __init__(self, low, high, validate_args=None):
        self.low, self.high = _as_tensor(low), _as_tensor(high)
        super().__init__(tuple((self.low + self.high).shape))

    def rsample(self, sample_shape=()):
        u = rand(*_shape(sample_shape), *self.batch_shape, dtype=self.low.dtype)
        return self.low + u * (self.high - self.low)

    def log_prob(self, value):
        inside = (value >= self.low) & (value < self.high)
        return where(inside, -(self.high - self.low).log(), float("-inf"))

    def entropy(self):
        return (self.high - self.low).log()

    @property
    def mean(self):
        return (self.low + self.high) / 2

    @property
    def variance(self):
        return (self.high - self.low) ** 2 / 12


def kl_divergence(p, q):
    """KL(p || q) for two distributions of the same family (Normal, Categorical, Bernoulli,
    Uniform), torch's closed forms."""
    if type(p) is not type(q):
        raise NotImplementedError(f"kl_divergence({type(p).__name__}, {type(q).__name__}) is not implemented; "
                                  "expected two distributions of the same family")
    if isinstance(p, Normal):
        var_ratio = (p.scale / q.scale) ** 2
        t1 = ((p.loc - q.loc) / q.scale) ** 2
        return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())
    if isinstance(p, Categorical):
        return where(p.probs > 0, p.probs * (p.logits - q.logits), 0.0).sum(-1)
    if isinstance(p, Bernoulli):
        return p.probs * (p.logits.sigmoid().log() - q.logits.sigmoid().log()) + \
            (1 - p.probs) * ((-p.logits).sigmoid().log() - (-q.logits).sigmoid().log())
    if isinstance(p, Uniform):
        inside = (q.low <= p.low) & (p.high <= q.high)
        return where(inside, ((q.high - q.low) / (p.high - p.low)).log(), float("inf"))
    raise NotImplementedError(f"kl_divergence of {type(p).__name__} is not implemented")
