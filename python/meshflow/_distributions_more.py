"""More of torch.distributions, as RL and probabilistic code meets it: the `mode` of the
discrete and location families, OneHotCategorical, Cauchy, StudentT, Geometric, Binomial,
HalfNormal, HalfCauchy, Gumbel, Chi2, Multinomial, NegativeBinomial, Weibull, Pareto, and
TransformedDistribution with the transforms SAC-style policies chain (`TanhTransform`,
`AffineTransform`, `ExpTransform`, `SigmoidTransform`), and the relaxed (Concrete) families
`RelaxedBernoulli` and `RelaxedOneHotCategorical` with their logit / log forms. Log-probabilities are torch's
formulas composed of meshflow ops; samples come from meshflow's generator (not torch's
values). Stateless beyond the distributions' parameters: thread-safe as the ops are."""
import math

from ._ops_creation import rand
from ._ops_elementwise import softplus, where
from ._tensor import no_grad
from . import _distribution_constraints as constraints
from . import distributions as _d

__all__ = ["OneHotCategorical", "Cauchy", "StudentT", "Geometric", "Binomial", "HalfNormal", "HalfCauchy", "Gumbel",
           "Chi2", "Multinomial", "NegativeBinomial", "Weibull", "Pareto", "TransformedDistribution", "transforms",
           "RelaxedBernoulli", "RelaxedOneHotCategorical"]


class OneHotCategorical(_d.Distribution):
    """Categorical whose values are one-hot vectors over the last dim."""

    _held = ()  # torch's holds a Categorical

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.independent(constraints.real, 1)}
    support = constraints.one_hot

    _params = (("logits", 1),)

    def __init__(self, probs=None, logits=None, validate_args=None):
        self._categorical = _d.Categorical(probs, logits)
        self.probs, self.logits = self._categorical.probs, self._categorical.logits
        k = self.probs.shape[-1]
        super().__init__(self._categorical.batch_shape, (k,))

    def _sample(self, shape):
        return _one_hot_like(self._categorical._sample(shape), self.probs)

    def log_prob(self, value):
        return self._categorical.log_prob(value.argmax(-1))

    def entropy(self):
        return self._categorical.entropy()

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        return _one_hot_like(self.probs.argmax(-1), self.probs)

    @property
    def variance(self):
        return self.probs * (1 - self.probs)


def _one_hot_like(index, probs):
    from ._ops_index import one_hot
    return one_hot(index, probs.shape[-1]).to(probs.dtype)



class _LocScale(_d.Distribution):
    """A family of `loc` and `scale` sampled by its inverse cdf of uniform draws (rsample)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real

    _params = (("loc", 0), ("scale", 0))

    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = _d._as_tensors(loc, scale)
        super().__init__(tuple((self.loc + self.scale).shape))

    def _uniform(self, sample_shape):
        return _d._noise(rand, (*_d._shape(sample_shape), *self.batch_shape), self.loc)


class Cauchy(_LocScale):
    """Cauchy with `loc` and `scale`; rsample by the inverse cdf."""

    def rsample(self, sample_shape=()):
        return self.loc + self.scale * (math.pi * (self._uniform(sample_shape) - 0.5)).tan()

    def log_prob(self, value):
        return -math.log(math.pi) - self.scale.log() - (((value - self.loc) / self.scale) ** 2).log1p()

    def entropy(self):
        return math.log(4 * math.pi) + self.scale.log() + self.loc * 0

    def cdf(self, value):
        return ((value - self.loc) / self.scale).atan() / math.pi + 0.5

    def icdf(self, value):
        return self.loc + self.scale * (math.pi * (value - 0.5)).tan()

    @property
    def mode(self):
        return self.loc + self.scale * 0

    @property
    def mean(self):
        return self.loc * 0 + float("nan")

    @property
    def variance(self):
        return self.loc * 0 + float("inf")


class StudentT(_d.Distribution):
    """Student's t with `df`, `loc` and `scale`; samples drawn on the host (no rsample)."""

    arg_constraints = {"df": constraints.positive, "loc": constraints.real, "scale": constraints.positive}
    support = constraints.real

    _params = (("df", 0), ("loc", 0), ("scale", 0))

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None):
        self.df, self.loc, self.scale = _d._as_tensors(df, loc, scale)
        super().__init__(tuple((self.df + self.loc + self.scale).shape))

    def _sample(self, shape):
        df = self.df.expand(*self.batch_shape).detach()._numpy()
        t = _d._host_draws(lambda g, s: g.standard_t(df, s), self.loc, (*shape, *self.batch_shape))
        return self.loc + self.scale * t

    def log_prob(self, value):
        y = (value - self.loc) / self.scale
        z = self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi) + (0.5 * self.df).lgamma() - \
            (0.5 * (self.df + 1.0)).lgamma()
        return -0.5 * (self.df + 1.0) * (y ** 2 / self.df).log1p() - z

    def entropy(self):
        half = 0.5 * (self.df + 1)
        lbeta = (0.5 * self.df).lgamma() + math.lgamma(0.5) - half.lgamma()
        return self.scale.log() + half * (half.digamma() - (0.5 * self.df).digamma()) + 0.5 * self.df.log() + lbeta

    @property
    def mean(self):
        return where(self.df > 1, self.loc + self.df * 0, float("nan"))

    @property
    def mode(self):
        return self.loc + self.df * 0 + self.scale * 0

    @property
    def variance(self):
        var = self.scale ** 2 * self.df / (self.df - 2)
        return where(self.df > 2, var, where(self.df > 1, float("inf"), float("nan")))


class Geometric(_d.Distribution):
    """The number of failures before the first success, with `probs` or `logits`."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.nonnegative_integer

    _params = (("logits", 0),)

    def __init__(self, probs=None, logits=None, validate_args=None):
        b = _d.Bernoulli(probs, logits)
        self.probs, self.logits = b.probs, b.logits
        super().__init__(tuple(self.probs.shape))

    def _sample(self, shape):
        u = _d._noise(rand, (*shape, *self.batch_shape), self.probs).clamp(min=_d._eps(self.probs))
        return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value):
        eps = _d._eps(self.probs)
        p = self.probs.clamp(eps, 1 - eps)
        return value * (-p).log1p() + self.probs.log()

    def entropy(self):
        from .nn.functional import binary_cross_entropy_with_logits
        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none") / self.probs

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def mode(self):
        return self.probs * 0

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs


class Binomial(_d.Distribution):
    """The successes among `total_count` trials of `probs` (or `logits`)."""

    arg_constraints = {"total_count": constraints.nonnegative_integer, "probs": constraints.unit_interval,
                       "logits": constraints.real}
    support = property(lambda self: constraints.integer_interval(0, self.total_count))

    _params = (("total_count", 0), ("logits", 0))

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        b = _d.Bernoulli(probs, logits)
        self.probs, self.logits = b.probs, b.logits
        self.total_count = _d._as_tensor(total_count).to(self.probs.dtype)
        super().__init__(tuple((self.total_count + self.probs).shape))

    def _sample(self, shape):
        n = self.total_count.expand(*self.batch_shape).detach()._numpy().astype("int64")
        p = self.probs.expand(*self.batch_shape).detach()._numpy()
        return _d._host_draws(lambda g, s: g.binomial(n, p, s), self.probs, (*shape, *self.batch_shape))

    def log_prob(self, value):
        n, logits = self.total_count, self.logits
        log_factorial_n = (n + 1).lgamma()
        log_factorial_k = (value + 1).lgamma()
        log_factorial_nmk = (n - value + 1).lgamma()
        normalize = n * softplus(logits) - log_factorial_n
        return value * logits - log_factorial_k - log_factorial_nmk - normalize

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)



_EULER = 0.57721566490153286060


def _outside(value, inside, log_prob):
    """log_prob where `inside`, -inf elsewhere (outside the support)."""
    return where(inside, log_prob, float("-inf"))


class _Half(_d.Distribution):
    """|X| of a family X centred at 0 with `scale` (torch's AbsTransform of it): twice its
    density on [0, inf)."""

    _held = ()  # torch's holds the transformed family

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative

    _params = (("scale", 0),)

    has_rsample = True

    def __init__(self, scale, validate_args=None):
        self.scale = _d._as_tensor(scale)
        self.base_dist = self._family(self.scale * 0, self.scale)
        super().__init__(tuple(self.scale.shape))

    def rsample(self, sample_shape=()):
        return self.base_dist.rsample(sample_shape).abs()

    def log_prob(self, value):
        return _outside(value, value >= 0, self.base_dist.log_prob(value) + math.log(2))

    def cdf(self, value):
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        return self.base_dist.entropy() - math.log(2)

    @property
    def mode(self):
        return self.scale * 0


class HalfNormal(_Half):
    """|Normal(0, scale)|; rsample reparameterized."""

    _family = _d.Normal

    @property
    def mean(self):
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def variance(self):
        return self.scale ** 2 * (1 - 2 / math.pi)


class HalfCauchy(_Half):
    """|Cauchy(0, scale)|; rsample reparameterized."""

    _family = Cauchy

    @property
    def mean(self):
        return self.scale * 0 + float("inf")

    @property
    def variance(self):
        return self.scale * 0 + float("inf")


class Gumbel(_LocScale):
    """Gumbel (type I extreme value) with `loc` and `scale`; rsample by the inverse cdf."""

    def rsample(self, sample_shape=()):
        from ._api import finfo
        u = self._uniform(sample_shape)
        u = u.clamp(finfo(u.dtype).tiny, 1 - _d._eps(u))
        return self.loc - self.scale * (-u.log()).log()

    def log_prob(self, value):
        z = (value - self.loc) / self.scale
        return -(z + (-z).exp()) - self.scale.log()

    def cdf(self, value):
        return (-(-(value - self.loc) / self.scale).exp()).exp()

    def entropy(self):
        return self.scale.log() + (1 + _EULER) + self.loc * 0

    @property
    def mode(self):
        return self.loc + self.scale * 0

    @property
    def mean(self):
        return self.loc + self.scale * _EULER

    @property
    def variance(self):
        return (math.pi ** 2 / 6) * self.scale ** 2 + self.loc * 0


class Chi2(_d.Gamma):
    """Chi-squared with `df` degrees of freedom: Gamma(df / 2, 1 / 2)."""

    arg_constraints = {"df": constraints.positive}
    support = constraints.nonnegative

    _params = (("df", 0),)

    def __init__(self, df, validate_args=None):
        df = _d._as_tensor(df)
        super().__init__(0.5 * df, df * 0 + 0.5)

    @property
    def df(self):
        return self.concentration * 2


class Multinomial(_d.Distribution):
    """Counts of `total_count` draws from a Categorical of `probs` (or `logits`) over the last
    dim; event shape (K,)."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.independent(constraints.real, 1)}
    support = property(lambda self: constraints.multinomial(self.total_count))

    _params = (("total_count", 0), ("logits", 1))

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = _d.Categorical(probs, logits)
        self.probs, self.logits = self._categorical.probs, self._categorical.logits
        super().__init__(self._categorical.batch_shape, (self.probs.shape[-1],))

    def _sample(self, shape):
        draws = self._categorical._sample((self.total_count, *shape))  # [n, *shape, *batch]
        return _one_hot_like(draws, self.probs).sum(0)

    def log_prob(self, value):
        # 0 * -inf (a class of probability 0 never drawn) counts as 0, as torch's
        log_powers = where(value == 0, 0.0, self.logits * value).sum(-1)
        return (value.sum(-1) + 1).lgamma() - (value + 1).lgamma().sum(-1) + log_powers

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)


class NegativeBinomial(_d.Distribution):
    """The successes before `total_count` failures, each trial succeeding with `probs` (or
    `logits`); samples drawn on the host (a Poisson of a Gamma)."""

    arg_constraints = {"total_count": constraints.greater_than_eq(0), "probs": constraints.half_open_interval(0.0, 1.0),
                       "logits": constraints.real}
    support = constraints.nonnegative_integer

    _params = (("total_count", 0), ("logits", 0))

    def __init__(self, total_count, probs=None, logits=None, validate_args=None):
        b = _d.Bernoulli(probs, logits)
        self.probs, self.logits = b.probs, b.logits
        self.total_count = _d._as_tensor(total_count).to(self.probs.dtype)
        super().__init__(tuple((self.total_count + self.probs).shape))

    def _sample(self, shape):
        rate = _d.Gamma(self.total_count.expand(*self.batch_shape), (-self.logits).exp().expand(*self.batch_shape))
        return _d.Poisson(rate.sample(shape)).sample()

    def log_prob(self, value):
        from .nn.functional import logsigmoid
        n = self.total_count
        unnormalized = n * logsigmoid(-self.logits) + value * logsigmoid(self.logits)
        normalization = -(n + value).lgamma() + (1.0 + value).lgamma() + n.lgamma()
        return unnormalized - where(n + value == 0, 0.0, normalization)

    @property
    def mean(self):
        return self.total_count * self.logits.exp()

    @property
    def mode(self):
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self):
        return self.mean / (-self.logits).sigmoid()


class Weibull(_d.Distribution):
    """Weibull with `scale` and `concentration`; rsample by the inverse cdf."""

    arg_constraints = {"scale": constraints.positive, "concentration": constraints.positive}
    support = constraints.positive

    _params = (("scale", 0), ("concentration", 0))

    has_rsample = True

    def __init__(self, scale, concentration, validate_args=None):
        self.scale, self.concentration = _d._as_tensors(scale, concentration)
        super().__init__(tuple((self.scale + self.concentration).shape))

    def rsample(self, sample_shape=()):
        u = _d._noise(rand, (*_d._shape(sample_shape), *self.batch_shape), self.scale)
        return self.scale * (-(-u).log1p()).pow(1 / self.concentration)

    def log_prob(self, value):
        c, z = self.concentration, value / self.scale
        return _outside(value, value >= 0, (c / self.scale).log() + (c - 1) * z.log() - z.pow(c))

    def cdf(self, value):
        return 1 - (-(value / self.scale).pow(self.concentration)).exp()

    def entropy(self):
        c = self.concentration
        return _EULER * (1 - 1 / c) + (self.scale / c).log() + 1

    @property
    def mean(self):
        return self.scale * (1 + 1 / self.concentration).lgamma().exp()

    @property
    def mode(self):
        c = self.concentration
        return self.scale * ((c - 1) / c).pow(1 / c)

    @property
    def variance(self):
        c = self.concentration
        return self.scale ** 2 * ((1 + 2 / c).lgamma().exp() - (2 * (1 + 1 / c).lgamma()).exp())


class Pareto(_d.Distribution):
    """Pareto with `scale` (the smallest value) and `alpha`; rsample by the inverse cdf."""

    arg_constraints = {"scale": constraints.positive, "alpha": constraints.positive}
    support = property(lambda self: constraints.greater_than_eq(self.scale))

    _params = (("scale", 0), ("alpha", 0))

    has_rsample = True

    def __init__(self, scale, alpha, validate_args=None):
        self.scale, self.alpha = _d._as_tensors(scale, alpha)
        super().__init__(tuple((self.scale + self.alpha).shape))

    def rsample(self, sample_shape=()):
        u = _d._noise(rand, (*_d._shape(sample_shape), *self.batch_shape), self.scale)
        return self.scale * (-(-u).log1p() / self.alpha).exp()

    def log_prob(self, value):
        a = self.alpha
        return _outside(value, value >= self.scale, a.log() + a * self.scale.log() - (a + 1) * value.log())

    def cdf(self, value):
        return 1 - (self.scale / value).pow(self.alpha)

    def entropy(self):
        return (self.scale / self.alpha).log() + (1 + 1 / self.alpha)

    @property
    def mean(self):
        a = self.alpha.clamp(min=1)
        return a * self.scale / (a - 1)

    @property
    def mode(self):
        return self.scale + self.alpha * 0

    @property
    def variance(self):
        a = self.alpha.clamp(min=2)
        return self.scale ** 2 * a / ((a - 1) ** 2 * (a - 2))

def _transformed_support(self):
    """The last transform's codomain, as torch's (the base's support without transforms)."""
    return self.transforms[-1].codomain if self.transforms else self.base_dist.support


class TransformedDistribution(_d.Distribution):
    """base_distribution pushed through `transforms` (one or a list, applied in order):
    samples are the transformed base samples, log_prob subtracts each transform's log |det J|
    (summed over the base's event dims), as torch's."""

    arg_constraints = {}
    support = property(_transformed_support)

    def __init__(self, base_distribution, transforms, validate_args=None):
        self.base_dist = base_distribution
        self.transforms = list(transforms) if isinstance(transforms, (list, tuple)) else [transforms]
        self.has_rsample = base_distribution.has_rsample
        super().__init__(base_distribution.batch_shape, base_distribution.event_shape)

    def expand(self, batch_shape, _instance=None):
        """The base expanded to batch_shape (with its event dims), the same transforms."""
        return TransformedDistribution(self.base_dist.expand(batch_shape), self.transforms)

    def rsample(self, sample_shape=()):
        x = self.base_dist.rsample(sample_shape)
        for t in self.transforms:
            x = t(x)
        return x

    def _sample(self, shape):
        x = self.base_dist.sample(shape)
        for t in self.transforms:
            x = t(x)
        return x

    def sample(self, sample_shape=()):
        with no_grad():
            return self._sample(_d._shape(sample_shape))

    def log_prob(self, value):
        event_dims = len(self.event_shape)
        total, y = 0.0, value
        for t in reversed(self.transforms):
            x = t.inv(y)
            ladj = t.log_abs_det_jacobian(x, y)
            total = total - (ladj.sum(tuple(range(-event_dims, 0))) if event_dims else ladj)
            y = x
        return total + self.base_dist.log_prob(y)


def _clamp_probs(p):
    eps = _d._eps(p)
    return p.clamp(eps, 1 - eps)


class LogitRelaxedBernoulli(_d.Distribution):
    """The logit of a RelaxedBernoulli (the binary Concrete distribution) with `temperature`
    and `probs` or `logits`: torch's rsample from clamped uniforms and log_prob."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.real

    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self.temperature = _d._as_tensor(temperature)
        bern = _d.Bernoulli(probs, logits)
        self.probs, self.logits = bern.probs, bern.logits
        super().__init__(tuple(bern.batch_shape))

    def rsample(self, sample_shape=()):
        u = _clamp_probs(_d._noise(rand, (*_d._shape(sample_shape), *self.batch_shape), self.probs))
        p = _clamp_probs(self.probs)
        return (u.log() - (-u).log1p() + p.log() - (-p).log1p()) / self.temperature

    def log_prob(self, value):
        diff = self.logits - value * self.temperature
        return self.temperature.log() + diff - 2 * diff.exp().log1p()


class _Relaxed(TransformedDistribution):
    """A relaxed family: a transform of its base distribution, whose parameters it shows."""

    temperature = property(lambda self: self.base_dist.temperature)
    probs = property(lambda self: self.base_dist.probs)
    logits = property(lambda self: self.base_dist.logits)


class RelaxedBernoulli(_Relaxed):
    """A relaxed (continuous in (0, 1)) Bernoulli: sigmoid of a LogitRelaxedBernoulli, with
    rsample, as torch's."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        super().__init__(LogitRelaxedBernoulli(temperature, probs, logits), transforms.SigmoidTransform())


class ExpRelaxedCategorical(_d.Distribution):
    """The log of a RelaxedOneHotCategorical (the Concrete distribution) over the last dim,
    with `temperature` and `probs` or `logits`: torch's rsample (Gumbel noise) and log_prob."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.real_vector

    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self.temperature = _d._as_tensor(temperature)
        self._categorical = _d.Categorical(probs, logits)
        self.probs, self.logits = self._categorical.probs, self._categorical.logits
        super().__init__(self._categorical.batch_shape, (self.probs.shape[-1],))

    def rsample(self, sample_shape=()):
        shape = (*_d._shape(sample_shape), *self.batch_shape, *self.event_shape)
        u = _clamp_probs(_d._noise(rand, shape, self.logits))
        scores = (self.logits - (-u.log()).log()) / self.temperature
        return scores - scores.logsumexp(-1, keepdim=True)

    def log_prob(self, value):
        k = self.event_shape[0]
        log_scale = math.lgamma(k) + (k - 1) * self.temperature.log()
        score = self.logits - value * self.temperature
        return (score - score.logsumexp(-1, keepdim=True)).sum(-1) + log_scale


class RelaxedOneHotCategorical(_Relaxed):
    """A relaxed one-hot categorical on the simplex: exp of an ExpRelaxedCategorical, with
    rsample, as torch's."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.simplex

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        super().__init__(ExpRelaxedCategorical(temperature, probs, logits), transforms.ExpTransform())


from . import _distribution_transforms as transforms  # noqa: E402  (torch.distributions.transforms)
