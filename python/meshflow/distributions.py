"""torch.distributions' everyday families, as policy-gradient and VAE code uses them:
Categorical, Bernoulli, Normal, Uniform, Laplace, Exponential, LogNormal, MultivariateNormal,
Gamma, Beta, Dirichlet, Poisson, Independent and MixtureSameFamily (batch_shape, event_shape,
expand, sample / rsample, log_prob, entropy, mean, mode, variance, probs / logits, cdf / icdf
where torch has them), the
families of _distributions_more.py (OneHotCategorical, Cauchy, StudentT, Geometric, Binomial,
HalfNormal, HalfCauchy, Gumbel, Chi2, Multinomial, NegativeBinomial, Weibull, Pareto,
TransformedDistribution and its transforms, the relaxed Bernoulli and one-hot categorical) and
kl_divergence between two of the same family. Log-probabilities and entropies are torch's
formulas, composed of meshflow ops (so they have gradients and run on global tensors); samples
come from meshflow's generator (`generator=` too), so their values differ from torch's, as
every random op's. Gamma, Beta, Dirichlet and Poisson draw on the host (NumPy, seeded from
meshflow's generator) and have no rsample (torch's implicit reparameterization)."""
import math
import sys as _sys
import types as _types

from . import _distribution_constraints as constraints  # torch.distributions.constraints
from ._ops_creation import rand, randn
from ._ops_elementwise import softplus, where
from ._ops_random import multinomial
from ._tensor import Tensor, no_grad, tensor

__all__ = ["Distribution", "Categorical", "Bernoulli", "Normal", "Uniform", "Laplace", "Exponential", "LogNormal",
           "MultivariateNormal", "Gamma", "Beta", "Dirichlet", "Poisson", "Independent", "MixtureSameFamily",
           "kl_divergence", "OneHotCategorical", "Cauchy", "StudentT", "Geometric", "Binomial", "HalfNormal",
           "HalfCauchy", "Gumbel", "Chi2", "Multinomial", "NegativeBinomial", "Weibull", "Pareto",
           "TransformedDistribution", "transforms", "RelaxedBernoulli", "RelaxedOneHotCategorical", "register_kl", "kl", "constraints"]


def _as_tensor(value):
    return value if isinstance(value, Tensor) else tensor(float(value))


def _as_tensors(*values):
    """The parameters as tensors, numbers made as torch's broadcast_all makes them: in the
    first local tensor's floating dtype and on its device (so that Normal(loc_on_gpu, 1.0)
    samples and scores there)."""
    like = next((v for v in values if isinstance(v, Tensor) and not v.is_global), None)
    if like is None:
        return tuple(_as_tensor(v) for v in values)
    dtype = like.dtype if like.is_floating_point() else None
    return tuple(v if isinstance(v, Tensor) else tensor(float(v), dtype=dtype, device=like.device) for v in values)


def _eps(t):
    from ._api import finfo
    return finfo(t.dtype).eps


def _noise(draw, shape, like):
    """draw (rand or randn) of `shape` in like's dtype and on like's device: samples are made
    where their distribution's parameters are."""
    return draw(*shape, dtype=like.dtype, device=like.device)


def _shape(sample_shape):
    return tuple(sample_shape) if not isinstance(sample_shape, int) else (sample_shape,)


def _validating(method):
    """`method` (a family's log_prob or cdf) that first checks its value, where validation is on."""
    import functools

    @functools.wraps(method)
    def checked(self, value, *args, **kwargs):
        if self._validate_args:
            self._validate_sample(value)
        return method(self, value, *args, **kwargs)
    checked._validates = True
    return checked


class Distribution:
    """What every family has: batch_shape, event_shape, sample (no gradient), stddev; and, as
    torch's, `arg_constraints` (parameter name -> the constraint it meets) and `support` (the
    set values live in), constraints from torch.distributions.constraints."""

    has_rsample = False
    arg_constraints = {}
    support = None

    def __init__(self, batch_shape=(), event_shape=(), validate_args=None):
        from ._api import Size
        self.batch_shape, self.event_shape = Size(batch_shape), Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args

    def __init_subclass__(cls, **kwargs):
        """log_prob and cdf check their value first, as torch's (where validation is on, its
        default): a value outside the support raises a ValueError instead of giving a number."""
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is not None:  # the families take validate_args without passing it on
            import functools

            @functools.wraps(init)
            def recording(self, *args, **kwargs):
                init(self, *args, **kwargs)
                if kwargs.get("validate_args") is not None:
                    self._validate_args = kwargs["validate_args"]
            cls.__init__ = recording
        for name in ("log_prob", "cdf"):
            method = cls.__dict__.get(name)
            if method is not None and not getattr(method, "_validates", False):
                setattr(cls, name, _validating(method))

    @property
    def _validate_args(self):
        return self.__dict__.get("_validate_args_value", Distribution._validate_default)

    @_validate_args.setter
    def _validate_args(self, value):
        self.__dict__["_validate_args_value"] = bool(value)

    def _validate_sample(self, value):
        """torch's checks of a value given to log_prob / cdf: a tensor, whose trailing dims are
        the event shape and whose others broadcast with the batch shape, inside the support."""
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event = tuple(self.event_shape)
        shape = tuple(value.shape)
        if shape[len(shape) - len(event):] != event or len(shape) < len(event):
            raise ValueError(f"The right-most size of value must match event_shape: {value.size()} vs {self.event_shape}.")
        for i, j in zip(reversed(shape), reversed(tuple(self.batch_shape) + event)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f"Value is not broadcastable with batch_shape+event_shape: {value.size()} vs "
                                 f"{self.batch_shape + self.event_shape}.")
        try:
            support = self.support
        except NotImplementedError:  # a family without one: nothing to check, as torch's
            return
        if support is None:
            return
        valid = support.check(value)
        if not bool(valid.all()):
            raise ValueError(f"Expected value argument ({type(value).__name__} of shape {tuple(value.shape)}) to be "
                             f"within the support ({support!r}) of the distribution {self!r}, but found invalid "
                             f"values:\n{value}")

    def sample(self, sample_shape=()):
        with no_grad():
            return self.rsample(sample_shape) if self.has_rsample else self._sample(_shape(sample_shape))

    @property
    def stddev(self):
        return self.variance.sqrt()

    def sample_n(self, n):
        return self.sample((n,))

    # The constructor's parameters, each with its number of dims after the batch dims, from
    # which expand rebuilds the family; families built of others (Independent ...) override it.
    _params = ()

    def expand(self, batch_shape, _instance=None):
        """This family with each parameter expanded to `batch_shape` (torch's expand: the new
        batch shape broadcasts the old one; parameters are expanded, not copied)."""
        from ._api import Size
        batch = tuple(Size(batch_shape))
        if not self._params:
            raise NotImplementedError(f"{type(self).__name__}.expand is not implemented")
        args = {}
        for name, event_ndims in self._params:
            value = getattr(self, name)
            args[name] = value.expand(*batch, *value.shape[value.ndim - event_ndims:]) if isinstance(value, Tensor) \
                else value
        return type(self)(**args)

    def perplexity(self):
        return self.entropy().exp()

    _validate_default = True

    @staticmethod
    def set_default_validate_args(value):
        """Recorded, as torch's switch (meshflow's families check their arguments as they are
        built, whatever it says)."""
        if value not in (True, False):
            raise ValueError(f"set_default_validate_args expects True or False, got {value!r}")
        Distribution._validate_default = value

    _held = None  # the parameters torch's family keeps as attributes (None: all it has), for repr

    def __repr__(self):
        """torch's: each parameter of arg_constraints that the family holds, its value where it
        is one number, else its (batch-broadcast) size; of probs and logits, the one it was
        made with (torch computes the other when first read; probs where not known)."""
        held = [k for k in self.arg_constraints if k in self.__dict__ and (self._held is None or k in self._held)]
        derived = self.__dict__.get("_derived", "logits" if "probs" in held else None)
        shown = []
        for k in held:
            v = self.__dict__[k]
            if k != derived and isinstance(v, Tensor):
                v = v.expand(self.batch_shape) if v.dim() < len(self.batch_shape) else v
                shown.append(f"{k}: {v if v.numel() == 1 else v.size()}")
        return f"{type(self).__name__}({', '.join(shown)})"


class Categorical(Distribution):
    """Classes 0..K-1 with `probs` (normalized over the last dim) or `logits` (log-softmaxed)."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.independent(constraints.real, 1)}
    support = property(lambda self: constraints.integer_interval(0, self.probs.shape[-1] - 1))

    _params = (("logits", 1),)

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        self._derived = "logits" if probs is not None else "probs"
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
        # value and the batch broadcast against each other, as torch's (a [n, 1] column of
        # classes against a batch of b scores n x b)
        from numpy import broadcast_shapes
        shape = broadcast_shapes(tuple(value.shape), tuple(self.batch_shape))
        logits = self.logits.expand(*shape, self.logits.shape[-1])
        return logits.gather(-1, value.long().expand(*shape).unsqueeze(-1)).squeeze(-1)

    def entropy(self):
        # masked classes (logits of -inf, as action masking makes) count 0 * log 0 = 0: the
        # logits clamped to the dtype's lowest value first, as torch's
        from ._api import finfo
        return -(self.logits.clamp(min=finfo(self.logits.dtype).min) * self.probs).sum(-1)

    @property
    def mode(self):
        return self.probs.argmax(-1)

    @property
    def param_shape(self):
        """The shape of probs and logits: batch_shape + [K], as torch's."""
        return self.probs.shape

    has_enumerate_support = True

    def enumerate_support(self, expand=True):
        """Each class, [K] + batch_shape (expand=False: [K] + ones), as torch's."""
        from ._ops_creation import arange
        values = arange(self.probs.shape[-1], device=self.probs.device).view(-1, *([1] * len(self.batch_shape)))
        return values.expand(-1, *self.batch_shape) if expand else values

    @property
    def mean(self):
        """NaN (classes have no mean), as torch's."""
        return self.probs[..., 0] * 0 + float("nan")

    @property
    def variance(self):
        return self.probs[..., 0] * 0 + float("nan")


class Bernoulli(Distribution):
    """0/1 with `probs` or `logits` (the log-odds)."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean

    _params = (("logits", 0),)

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        self._derived = "logits" if probs is not None else "probs"
        if probs is not None:
            self.probs = _as_tensor(probs)
            p = self.probs.clamp(_eps(self.probs), 1 - _eps(self.probs))
            self.logits = p.log() - (-p).log1p()
        else:
            self.logits = _as_tensor(logits)
            self.probs = self.logits.sigmoid()
        super().__init__(tuple(self.probs.shape))

    def _sample(self, shape):
        return (rand(*shape, *self.batch_shape, device=self.probs.device) < self.probs).to(self.probs.dtype)

    def log_prob(self, value):
        # -BCE with logits: value * logits - softplus(logits), computed stably.
        return value * self.logits - softplus(self.logits)

    def entropy(self):
        return -(self.probs * self.logits - softplus(self.logits))

    has_enumerate_support = True

    def enumerate_support(self, expand=True):
        """0 and 1, [2] + batch_shape (expand=False: [2] + ones), as torch's."""
        values = tensor([0.0, 1.0], dtype=self.probs.dtype, device=self.probs.device)
        values = values.view(-1, *([1] * len(self.batch_shape)))
        return values.expand(-1, *self.batch_shape) if expand else values

    @property
    def mode(self):
        """1 where probs > 0.5, 0 below, NaN at 0.5 (torch's)."""
        return where(self.probs == 0.5, float("nan"), (self.probs > 0.5).to(self.probs.dtype))

    @property
    def mean(self):
        return self.probs

    @property
    def variance(self):
        return self.probs * (1 - self.probs)


class Normal(Distribution):
    """Gaussian with `loc` and `scale`; rsample is reparameterized (loc + scale * eps)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real

    _params = (("loc", 0), ("scale", 0))

    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = _as_tensors(loc, scale)
        shape = (self.loc + self.scale).shape
        super().__init__(tuple(shape))

    def rsample(self, sample_shape=()):
        eps = _noise(randn, (*_shape(sample_shape), *self.batch_shape), self.loc)
        return self.loc + eps * self.scale

    def log_prob(self, value):
        var = self.scale ** 2
        return -((value - self.loc) ** 2) / (2 * var) - self.scale.log() - math.log(math.sqrt(2 * math.pi))

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + self.scale.log() + self.loc * 0

    def cdf(self, value):
        return 0.5 * (1 + ((value - self.loc) / (self.scale * math.sqrt(2))).erf())

    def icdf(self, value):
        return self.loc + self.scale * (2 * value - 1).erfinv() * math.sqrt(2)

    @property
    def mode(self):
        return self.loc + self.scale * 0

    @property
    def mean(self):
        return self.loc + self.scale * 0

    @property
    def variance(self):
        return self.scale ** 2 + self.loc * 0


class Uniform(Distribution):
    """Uniform on [low, high)."""

    arg_constraints = {"low": constraints.dependent(is_discrete=False, event_dim=0),
                       "high": constraints.dependent(is_discrete=False, event_dim=0)}
    support = property(lambda self: constraints.interval(self.low, self.high))

    _params = (("low", 0), ("high", 0))

    has_rsample = True

    def __init__(self, low, high, validate_args=None):
        self.low, self.high = _as_tensors(low, high)
        super().__init__(tuple((self.low + self.high).shape))

    def rsample(self, sample_shape=()):
        u = _noise(rand, (*_shape(sample_shape), *self.batch_shape), self.low)
        return self.low + u * (self.high - self.low)

    def log_prob(self, value):
        inside = (value >= self.low) & (value < self.high)
        return where(inside, -(self.high - self.low).log(), float("-inf"))

    def entropy(self):
        return (self.high - self.low).log()

    def cdf(self, value):
        return ((value - self.low) / (self.high - self.low)).clamp(min=0, max=1)

    def icdf(self, value):
        return value * (self.high - self.low) + self.low

    @property
    def mode(self):
        """NaN (every point is one), as torch's."""
        return (self.low + self.high) * float("nan")

    @property
    def mean(self):
        return (self.low + self.high) / 2

    @property
    def variance(self):
        return (self.high - self.low) ** 2 / 12


class Laplace(Distribution):
    """Laplace with `loc` and `scale`; rsample by the inverse cdf."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real

    _params = (("loc", 0), ("scale", 0))

    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = _as_tensors(loc, scale)
        super().__init__(tuple((self.loc + self.scale).shape))

    def rsample(self, sample_shape=()):
        u = _noise(rand, (*_shape(sample_shape), *self.batch_shape), self.loc) * 2 - 1
        u = u.clamp(min=_eps(u) - 1)  # torch draws from (eps - 1, 1)
        return self.loc - self.scale * u.sign() * (-u.abs()).log1p()

    def log_prob(self, value):
        return -(2 * self.scale).log() - (value - self.loc).abs() / self.scale

    def entropy(self):
        return 1 + (2 * self.scale).log()

    def cdf(self, value):
        return 0.5 - 0.5 * (value - self.loc).sign() * (-(value - self.loc).abs() / self.scale).expm1()

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * term.sign() * (-2 * term.abs()).log1p()

    @property
    def mode(self):
        return self.loc + self.scale * 0

    @property
    def mean(self):
        return self.loc + self.scale * 0

    @property
    def variance(self):
        return 2 * self.scale ** 2 + self.loc * 0


class Exponential(Distribution):
    """Exponential with `rate`."""

    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative

    _params = (("rate", 0),)

    has_rsample = True

    def __init__(self, rate, validate_args=None):
        self.rate = _as_tensor(rate)
        super().__init__(tuple(self.rate.shape))

    def rsample(self, sample_shape=()):
        u = _noise(rand, (*_shape(sample_shape), *self.batch_shape), self.rate)
        return -(1 - u).log() / self.rate

    def log_prob(self, value):
        return self.rate.log() - self.rate * value

    def entropy(self):
        return 1.0 - self.rate.log()

    def cdf(self, value):
        return 1 - (-self.rate * value).exp()

    def icdf(self, value):
        return -(-value).log1p() / self.rate

    @property
    def mode(self):
        return self.rate * 0

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def variance(self):
        return self.rate ** -2


class LogNormal(Distribution):
    """exp of a Normal(loc, scale)."""

    _held = ()  # torch's holds a base distribution

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.positive

    _params = (("loc", 0), ("scale", 0))

    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.base_dist = Normal(loc, scale)
        self.loc, self.scale = self.base_dist.loc, self.base_dist.scale
        super().__init__(tuple(self.base_dist.batch_shape))

    def rsample(self, sample_shape=()):
        return self.base_dist.rsample(sample_shape).exp()

    def log_prob(self, value):
        y = value.log()
        return self.base_dist.log_prob(y) - y

    def entropy(self):
        return self.base_dist.entropy() + self.loc

    @property
    def mode(self):
        return (self.loc - self.scale ** 2).exp()

    @property
    def mean(self):
        return (self.loc + self.scale ** 2 / 2).exp()

    @property
    def variance(self):
        s2 = self.scale ** 2
        return s2.expm1() * (2 * self.loc + s2).exp()


class MultivariateNormal(Distribution):
    """Gaussian of `loc` [..., k] with one of covariance_matrix, precision_matrix or scale_tril
    [..., k, k] (kept as its Cholesky factor scale_tril, as torch)."""

    arg_constraints = {"loc": constraints.real_vector, "covariance_matrix": constraints.positive_definite,
                       "precision_matrix": constraints.positive_definite, "scale_tril": constraints.lower_cholesky}
    support = constraints.real_vector

    _params = (("loc", 1), ("scale_tril", 2))

    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        from . import linalg
        if (covariance_matrix is not None) + (precision_matrix is not None) + (scale_tril is not None) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        if scale_tril is None:
            covariance = covariance_matrix if covariance_matrix is not None else linalg.inv(precision_matrix)
            scale_tril = linalg.cholesky(covariance)
        self.loc, self.scale_tril = loc, scale_tril
        k = loc.shape[-1]
        batch = tuple(__import__("numpy").broadcast_shapes(tuple(loc.shape[:-1]), tuple(scale_tril.shape[:-2])))
        super().__init__(batch, (k,))

    @property
    def covariance_matrix(self):
        return self.scale_tril @ self.scale_tril.transpose(-2, -1)

    @property
    def precision_matrix(self):
        from . import linalg
        return linalg.inv(self.covariance_matrix)

    def rsample(self, sample_shape=()):
        eps = _noise(randn, (*_shape(sample_shape), *self.batch_shape, *self.event_shape), self.loc)
        return self.loc + (self.scale_tril @ eps.unsqueeze(-1)).squeeze(-1)

    def _half_log_det(self):
        return self.scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def _mahalanobis(self, diff):
        """|L^-1 diff|^2 over the last dim (L broadcast over diff's batch)."""
        from . import linalg
        k = diff.shape[-1]
        L = self.scale_tril.expand(*diff.shape[:-1], k, k)
        return linalg.solve_triangular(L, diff.unsqueeze(-1), upper=False).squeeze(-1).pow(2).sum(-1)

    def log_prob(self, value):
        k = self.event_shape[0]
        return -0.5 * (k * math.log(2 * math.pi) + self._mahalanobis(value - self.loc)) - self._half_log_det()

    def entropy(self):
        k = self.event_shape[0]
        return 0.5 * k * (1.0 + math.log(2 * math.pi)) + self._half_log_det()

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return self.scale_tril.pow(2).sum(-1)


def _host_draws(draw, like, shape):
    """Values drawn on the host by draw(numpy_generator, shape), seeded from meshflow's
    generator, as a tensor of like's dtype and device."""
    import numpy as np
    from ._ops_random import randint
    seed = int(randint(0, 2 ** 62, (1,)).item())
    values = draw(np.random.default_rng(seed), tuple(shape))
    return tensor(np.asarray(values), dtype=like.dtype, device=like.device)


class Gamma(Distribution):
    """Gamma with `concentration` and `rate`."""

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative

    _params = (("concentration", 0), ("rate", 0))

    def __init__(self, concentration, rate, validate_args=None):
        self.concentration, self.rate = _as_tensors(concentration, rate)
        super().__init__(tuple((self.concentration + self.rate).shape))

    def _sample(self, shape):
        c = self.concentration.expand(*self.batch_shape).detach()._numpy()
        r = self.rate.expand(*self.batch_shape).detach()._numpy()
        return _host_draws(lambda g, s: g.gamma(c, 1.0, s) / r, self.concentration, (*shape, *self.batch_shape))

    def log_prob(self, value):
        c, r = self.concentration, self.rate
        return _xlogy(c, r) + _xlogy(c - 1, value) - r * value - c.lgamma()

    def entropy(self):
        c = self.concentration
        return c - self.rate.log() + c.lgamma() + (1.0 - c) * c.digamma()

    def cdf(self, value):
        """The regularized lower incomplete gamma function of (concentration, rate * value)."""
        from .special import gammainc
        return gammainc(self.concentration, self.rate * value)

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return (self.concentration - 1).clamp(min=0) / self.rate

    @property
    def variance(self):
        return self.concentration / self.rate ** 2


class Dirichlet(Distribution):
    """Dirichlet of `concentration` [..., k]."""

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex

    _params = (("concentration", 1),)

    def __init__(self, concentration, validate_args=None):
        self.concentration = concentration
        super().__init__(tuple(concentration.shape[:-1]), tuple(concentration.shape[-1:]))

    def _sample(self, shape):
        c = self.concentration.expand(*self.batch_shape, *self.event_shape).detach()._numpy()

        def draw(g, s):
            x = g.gamma(c, 1.0, s)
            return x / x.sum(-1, keepdims=True)
        return _host_draws(draw, self.concentration, (*shape, *self.batch_shape, *self.event_shape))

    def log_prob(self, value):
        c = self.concentration
        return _xlogy(c - 1.0, value).sum(-1) + c.sum(-1).lgamma() - c.lgamma().sum(-1)

    def entropy(self):
        c = self.concentration
        k = c.shape[-1]
        c0 = c.sum(-1)
        return c.lgamma().sum(-1) - c0.lgamma() - (k - c0) * c0.digamma() - ((c - 1.0) * c.digamma()).sum(-1)

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, keepdim=True)

    @property
    def mode(self):
        """The density's peak; where every concentration is below 1, torch's corner (the one-hot
        of the first largest)."""
        from .nn.functional import one_hot
        above = (self.concentration - 1).clamp(min=0)
        peak = above / above.sum(-1, keepdim=True)
        corner = one_hot(peak.argmax(-1), above.shape[-1]).to(peak.dtype)
        return where((self.concentration < 1).all(-1, keepdim=True), corner, peak)

    @property
    def variance(self):
        c0 = self.concentration.sum(-1, keepdim=True)
        return self.concentration * (c0 - self.concentration) / (c0 ** 2 * (c0 + 1))


class Beta(Distribution):
    """Beta with concentration1 (alpha) and concentration0 (beta)."""

    _held = ()  # torch's holds a base distribution

    arg_constraints = {"concentration1": constraints.positive, "concentration0": constraints.positive}
    support = constraints.unit_interval

    _params = (("concentration1", 0), ("concentration0", 0))

    def __init__(self, concentration1, concentration0, validate_args=None):
        from ._ops_shape import stack
        self.concentration1, self.concentration0 = _as_tensors(concentration1, concentration0)
        shape = (self.concentration1 + self.concentration0).shape
        self._dirichlet = Dirichlet(stack([self.concentration1.expand(*shape), self.concentration0.expand(*shape)], -1))
        super().__init__(tuple(shape))

    def _sample(self, shape):
        return self._dirichlet._sample(shape)[..., 0]

    def log_prob(self, value):
        from ._ops_shape import stack
        return self._dirichlet.log_prob(stack([value, 1.0 - value], -1))

    def entropy(self):
        return self._dirichlet.entropy()

    @property
    def mean(self):
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self):
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self):
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total ** 2 * (total + 1))


class Poisson(Distribution):
    """Poisson with `rate`."""

    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    _params = (("rate", 0),)

    def __init__(self, rate, validate_args=None):
        self.rate = _as_tensor(rate)
        super().__init__(tuple(self.rate.shape))

    def _sample(self, shape):
        r = self.rate.expand(*self.batch_shape).detach()._numpy()
        return _host_draws(lambda g, s: g.poisson(r, s), self.rate, (*shape, *self.batch_shape))

    def log_prob(self, value):
        return _xlogy(value, self.rate) - self.rate - (value + 1).lgamma()

    @property
    def mean(self):
        return self.rate

    @property
    def mode(self):
        return self.rate.floor()

    @property
    def variance(self):
        return self.rate


class Independent(Distribution):
    """base_distribution with its last `reinterpreted_batch_ndims` batch dims read as event
    dims: log_prob and entropy summed over them."""

    arg_constraints = {}
    support = property(lambda self: constraints.independent(self.base_dist.support,
                                                            self.reinterpreted_batch_ndims))

    def __repr__(self):
        return f"Independent({self.base_dist}, {self.reinterpreted_batch_ndims})"

    def __init__(self, base_distribution, reinterpreted_batch_ndims, validate_args=None):
        n = reinterpreted_batch_ndims
        if n > len(base_distribution.batch_shape):
            raise ValueError(f"Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), actual {n} "
                             f"vs {len(base_distribution.batch_shape)}")
        self.base_dist, self.reinterpreted_batch_ndims = base_distribution, n
        batch = tuple(base_distribution.batch_shape)
        super().__init__(batch[:len(batch) - n], batch[len(batch) - n:] + tuple(base_distribution.event_shape))
        self.has_rsample = base_distribution.has_rsample

    def expand(self, batch_shape, _instance=None):
        n = self.reinterpreted_batch_ndims
        base_batch = tuple(batch_shape) + tuple(self.base_dist.batch_shape[len(self.base_dist.batch_shape) - n:])
        return Independent(self.base_dist.expand(base_batch), n)

    def _sum_rightmost(self, value):
        n = self.reinterpreted_batch_ndims
        return value.sum(list(range(-n, 0))) if n else value

    def sample(self, sample_shape=()):
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape=()):
        return self.base_dist.rsample(sample_shape)

    def log_prob(self, value):
        return self._sum_rightmost(self.base_dist.log_prob(value))

    def entropy(self):
        return self._sum_rightmost(self.base_dist.entropy())

    @property
    def mode(self):
        return self.base_dist.mode

    @property
    def mean(self):
        return self.base_dist.mean

    @property
    def variance(self):
        return self.base_dist.variance


class MixtureSameFamily(Distribution):
    """A mixture of K components of one family: mixture_distribution a Categorical of batch
    shape B over K, component_distribution of batch shape B + (K,)."""

    arg_constraints = {}
    support = property(lambda self: self._component_distribution.support)

    def __repr__(self):
        return f"MixtureSameFamily(\n  {self._mixture_distribution},\n  {self._component_distribution})"

    def __init__(self, mixture_distribution, component_distribution, validate_args=None):
        self._mixture_distribution, self._component_distribution = mixture_distribution, component_distribution
        batch = tuple(component_distribution.batch_shape)
        if not isinstance(mixture_distribution, Categorical):
            raise ValueError("The Mixture distribution needs to be an instance of torch.distributions.Categorical")
        if batch[-1] != mixture_distribution.probs.shape[-1]:
            raise ValueError(f"`mixture_distribution component` ({mixture_distribution.probs.shape[-1]}) does not "
                             f"equal `component_distribution.batch_shape[-1]` ({batch[-1]})")
        self._event_ndims = len(component_distribution.event_shape)
        super().__init__(batch[:-1], tuple(component_distribution.event_shape))

    @property
    def mixture_distribution(self):
        return self._mixture_distribution

    @property
    def component_distribution(self):
        return self._component_distribution

    def _pad(self, x):
        """x with a size-1 dim where the components' dim is (before the event dims)."""
        return x.unsqueeze(-1 - self._event_ndims)

    def _probs(self):
        """The mixture weights [B, K], with size-1 event dims."""
        probs = self._mixture_distribution.probs
        return probs.reshape(*probs.shape, *([1] * self._event_ndims))

    def log_prob(self, value):
        log_prob_x = self._component_distribution.log_prob(self._pad(value))
        return (log_prob_x + self._mixture_distribution.logits.log_softmax(-1)).logsumexp(-1)

    def cdf(self, x):
        """The mixture weights' sum of the components' cdf (torch's: components of scalar events)."""
        return (self._component_distribution.cdf(self._pad(x)) * self._mixture_distribution.probs).sum(-1)

    def _sample(self, shape):
        comp = self._component_distribution.sample(shape)  # [S, B, K, E]
        mix = self._mixture_distribution.sample(shape)  # [S, B]
        index = mix.reshape(*mix.shape, 1, *([1] * self._event_ndims))
        index = index.expand(*mix.shape, 1, *self.event_shape)
        return comp.gather(len(shape) + len(self.batch_shape), index).squeeze(len(shape) + len(self.batch_shape))

    @property
    def mean(self):
        return (self._probs() * self._component_distribution.mean).sum(-1 - self._event_ndims)

    @property
    def variance(self):
        probs, dim = self._probs(), -1 - self._event_ndims
        mean_cond_var = (probs * self._component_distribution.variance).sum(dim)
        var_cond_mean = (probs * (self._component_distribution.mean - self._pad(self.mean)) ** 2).sum(dim)
        return mean_cond_var + var_cond_mean


def _xlogy(x, y):
    from ._ops_port import xlogy
    return xlogy(x, y)


def _kl_rules(p, q):
    """KL(p || q) of the families after the first four (torch's closed forms), or None."""
    if isinstance(p, Exponential):
        ratio = q.rate / p.rate
        return -ratio.log() + ratio - 1
    if isinstance(p, Laplace):
        scale_ratio, diff = p.scale / q.scale, (p.loc - q.loc).abs()
        return -scale_ratio.log() + diff / q.scale + scale_ratio * (-diff / p.scale).exp() - 1
    if isinstance(p, Poisson):
        return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)
    if isinstance(p, Gamma):
        pc, qc = p.concentration, q.concentration
        return qc * (p.rate / q.rate).log() + qc.lgamma() - pc.lgamma() + (pc - qc) * pc.digamma() + \
            (q.rate - p.rate) * (pc / p.rate)
    if isinstance(p, Beta):
        p1, p0, q1, q0 = p.concentration1, p.concentration0, q.concentration1, q.concentration0
        sp, sq = p1 + p0, q1 + q0
        return (q1.lgamma() + q0.lgamma() + sp.lgamma()) - (p1.lgamma() + p0.lgamma() + sq.lgamma()) + \
            (p1 - q1) * p1.digamma() + (p0 - q0) * p0.digamma() + (sq - sp) * sp.digamma()
    if isinstance(p, Dirichlet):
        pc, qc = p.concentration, q.concentration
        p_sum = pc.sum(-1)
        return p_sum.lgamma() - qc.sum(-1).lgamma() - (pc.lgamma() - qc.lgamma()).sum(-1) + \
            ((pc - qc) * (pc.digamma() - p_sum.digamma().unsqueeze(-1))).sum(-1)
    if isinstance(p, MultivariateNormal):
        from . import linalg
        n = p.event_shape[0]
        shape = tuple(__import__("numpy").broadcast_shapes(tuple(p.scale_tril.shape), tuple(q.scale_tril.shape)))
        ratio = linalg.solve_triangular(q.scale_tril.expand(*shape), p.scale_tril.expand(*shape), upper=False)
        return q._half_log_det() - p._half_log_det() + 0.5 * (ratio.pow(2).sum((-2, -1)) +
                                                              q._mahalanobis(q.loc - p.loc) - n)
    if isinstance(p, Independent):
        if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
            raise NotImplementedError("kl_divergence of Independent distributions of different event dims")
        return p._sum_rightmost(kl_divergence(p.base_dist, q.base_dist))
    return None


_KL_REGISTRY = {}  # (type of p, type of q) -> the rule register_kl was given


def register_kl(type_p, type_q):
    """torch's decorator: registers fn(p, q) as KL(p || q) for p of type_p and q of type_q
    (subclasses too; the most specific registration wins, then the built-in closed forms)."""
    if not (isinstance(type_p, type) and issubclass(type_p, Distribution) and isinstance(type_q, type) and
            issubclass(type_q, Distribution)):
        raise TypeError(f"register_kl expects two subclasses of Distribution, got {type_p!r} and {type_q!r}")

    def decorator(fn):
        _KL_REGISTRY[type_p, type_q] = fn
        return fn
    return decorator


def _registered_kl(p, q):
    matches = [(type_p, type_q) for type_p, type_q in _KL_REGISTRY if isinstance(p, type_p) and isinstance(q, type_q)]
    if not matches:
        return None
    # The most specific pair: the fewest steps up each argument's class hierarchy.
    best = min(matches, key=lambda pair: (type(p).__mro__.index(pair[0]), type(q).__mro__.index(pair[1])))
    return _KL_REGISTRY[best]


def kl_divergence(p, q):
    """KL(p || q): a rule given to register_kl, or for two distributions of the same family
    (Normal, Categorical, Bernoulli, Uniform, Exponential, Laplace, Poisson, Gamma, Beta,
    Dirichlet, MultivariateNormal, Independent) or of two families torch has one for
    (_distributions_kl.CROSS_FAMILY) torch's closed forms."""
    rule = _registered_kl(p, q)
    if rule is not None:
        return rule(p, q)
    if type(p) is not type(q):
        from ._distributions_kl import CROSS_FAMILY
        cross = CROSS_FAMILY.get((type(p), type(q)))
        if cross is None:
            raise NotImplementedError(f"kl_divergence({type(p).__name__}, {type(q).__name__}) is not implemented; "
                                      "expected two distributions of the same family or a pair torch has a closed "
                                      "form for")
        return cross(p, q)
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
    kl = _kl_rules(p, q)
    if kl is None:
        raise NotImplementedError(f"kl_divergence of {type(p).__name__} is not implemented")
    return kl


from ._distributions_more import (OneHotCategorical, Cauchy, StudentT, Geometric, Binomial,  # noqa: E402,F401
                                  HalfNormal, HalfCauchy, Gumbel, Chi2, Multinomial, NegativeBinomial, Weibull, Pareto,
                                  TransformedDistribution, transforms, RelaxedBernoulli, RelaxedOneHotCategorical)


# torch.distributions.kl as a module of its own (`from torch.distributions.kl import kl_divergence`).
kl = _types.ModuleType(__name__ + ".kl", "torch.distributions.kl: kl_divergence and register_kl.")
kl.kl_divergence, kl.register_kl = kl_divergence, register_kl
_sys.modules[kl.__name__] = kl
