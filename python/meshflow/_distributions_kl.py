"""kl_divergence's closed forms between distributions of different families, torch's: KL(p || q)
of each pair in CROSS_FAMILY (p's family, q's), infinite where p puts mass outside q's support
(a Normal against an Exponential), composed of meshflow ops elementwise over the broadcast
batch. distributions.kl_divergence consults them after register_kl's rules."""
import math

from ._distributions_more import Gumbel
from ._ops_creation import full_like
from ._ops_elementwise import where
from .distributions import Beta, Exponential, Gamma, Laplace, Normal, Uniform
from .special import xlogy

_EULER = 0.57721566490153286060


def _x_log_x(x):
    return xlogy(x, x)


def _infinite(p, q):
    """p's support reaches where q has no density."""
    return full_like(p.mean, math.inf)


def _outside(result, out):
    return where(out, math.inf, result)


def _beta_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * (p.concentration1 / (p.concentration1 + p.concentration0))


def _beta_gamma(p, q):
    total = p.concentration1 + p.concentration0
    digammas = p.concentration1.digamma() - total.digamma()
    return (-p.entropy() + q.concentration.lgamma() - q.concentration * q.rate.log()
            - (q.concentration - 1) * digammas + q.rate * p.concentration1 / total)


def _beta_normal(p, q):
    total = p.concentration1 + p.concentration0
    mean = p.concentration1 / total
    var = q.scale.pow(2)
    second = (mean * (1 - mean) / (total + 1) + mean.pow(2)) * 0.5
    return -p.entropy() + 0.5 * (var * 2 * math.pi).log() + (second - q.loc * mean + q.loc.pow(2) * 0.5) / var


def _beta_uniform(p, q):
    return _outside(-p.entropy() + (q.high - q.low).log(), (q.low > 0) | (q.high < 1))


def _exponential_gamma(p, q):
    ratio = q.rate / p.rate
    return (-q.concentration * ratio.log() + ratio + q.concentration.lgamma() + q.concentration * _EULER
            - (1 + _EULER))


def _exponential_gumbel(p, q):
    product, loc_ratio = p.rate * q.scale, q.loc / q.scale
    return product.log() - 1 - loc_ratio + loc_ratio.exp() * product / (product + 1) + product.reciprocal()


def _exponential_normal(p, q):
    var, rate2 = q.scale.pow(2), p.rate.pow(2)
    moments = rate2.reciprocal() - q.loc / p.rate + q.loc.pow(2) * 0.5
    return 0.5 * (rate2 * var * 2 * math.pi).log() - 1 + moments / var


def _gamma_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * p.concentration / p.rate


def _gamma_gumbel(p, q):
    product, loc_ratio = p.rate * q.scale, q.loc / q.scale
    c = p.concentration
    return ((c - 1) * c.digamma() - c.lgamma() - c + product.log() + c / product
            + loc_ratio.exp() * (1 + product.reciprocal()).pow(-c) - loc_ratio)


def _gamma_normal(p, q):
    var, rate2, c = q.scale.pow(2), p.rate.pow(2), p.concentration
    t1 = 0.5 * (rate2 * var * 2 * math.pi).log() - c - c.lgamma()
    return t1 + (c - 1) * c.digamma() + (0.5 * (c.pow(2) + c) / rate2 - q.loc * c / p.rate + 0.5 * q.loc.pow(2)) / var


def _gumbel_normal(p, q):
    ratio = p.scale / q.scale
    t3 = ((p.loc + p.scale * _EULER - q.loc) / q.scale).pow(2) * 0.5
    return -(ratio / math.sqrt(2 * math.pi)).log() + (math.pi * ratio * 0.5).pow(2) / 3 + t3 - (_EULER + 1)


def _laplace_normal(p, q):
    var = q.scale.pow(2)
    ratio = p.scale.pow(2) / var
    return (-0.5 * (2 * ratio / math.pi).log() + ratio + (0.5 * p.loc.pow(2) - p.loc * q.loc + 0.5 * q.loc.pow(2)) / var
            - 1)


def _normal_gumbel(p, q):
    mean_ratio, var_ratio, loc_ratio = p.loc / q.scale, (p.scale / q.scale).pow(2), q.loc / q.scale
    return (-var_ratio.log() * 0.5 + mean_ratio - loc_ratio + (-mean_ratio + 0.5 * var_ratio + loc_ratio).exp()
            - 0.5 * (1 + math.log(2 * math.pi)))


def _normal_laplace(p, q):
    diff = p.loc - q.loc
    diff_ratio = diff / p.scale
    t2 = math.sqrt(2 / math.pi) * p.scale * (-0.5 * diff_ratio.pow(2)).exp()
    t3 = diff * (math.sqrt(0.5) * diff_ratio).erf()
    return -(p.scale / q.scale).log() + (t2 + t3) / q.scale - 0.5 * (1 + math.log(0.5 * math.pi))


def _uniform_beta(p, q):
    width = p.high - p.low
    t2 = (q.concentration1 - 1) * (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    t3 = (q.concentration0 - 1) * (_x_log_x(1 - p.high) - _x_log_x(1 - p.low) + width) / width
    t4 = q.concentration1.lgamma() + q.concentration0.lgamma() - (q.concentration1 + q.concentration0).lgamma()
    return _outside(t3 + t4 - width.log() - t2, (p.high > 1) | (p.low < 0))


def _uniform_exponential(p, q):
    return _outside(q.rate * (p.high + p.low) / 2 - ((p.high - p.low) * q.rate).log(), p.low < 0)


def _uniform_gamma(p, q):
    width = p.high - p.low
    t3 = (1 - q.concentration) * (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    return _outside(-width.log() + t2 + t3 + q.rate * (p.high + p.low) / 2, p.low < 0)


def _uniform_gumbel(p, q):
    ratio = q.scale / (p.high - p.low)
    high, low = (p.high - q.loc) / q.scale, (p.low - q.loc) / q.scale
    return ratio.log() + 0.5 * (high + low) - ratio * ((-high).exp() - (-low).exp())


def _uniform_normal(p, q):
    width = p.high - p.low
    t1 = (math.sqrt(math.pi * 2) * q.scale / width).log()
    return t1 + 0.5 * (width.pow(2) / 12 + ((p.high + p.low - 2 * q.loc) / 2).pow(2)) / q.scale.pow(2)


CROSS_FAMILY = {
    (Beta, Exponential): _beta_exponential, (Beta, Gamma): _beta_gamma, (Beta, Normal): _beta_normal,
    (Beta, Uniform): _beta_uniform,
    (Exponential, Beta): _infinite, (Exponential, Uniform): _infinite, (Exponential, Gamma): _exponential_gamma,
    (Exponential, Gumbel): _exponential_gumbel, (Exponential, Normal): _exponential_normal,
    (Gamma, Beta): _infinite, (Gamma, Uniform): _infinite, (Gamma, Exponential): _gamma_exponential,
    (Gamma, Gumbel): _gamma_gumbel, (Gamma, Normal): _gamma_normal,
    (Gumbel, Beta): _infinite, (Gumbel, Exponential): _infinite, (Gumbel, Gamma): _infinite,
    (Gumbel, Uniform): _infinite, (Gumbel, Normal): _gumbel_normal,
    (Laplace, Beta): _infinite, (Laplace, Exponential): _infinite, (Laplace, Gamma): _infinite,
    (Laplace, Uniform): _infinite, (Laplace, Normal): _laplace_normal,
    (Normal, Beta): _infinite, (Normal, Exponential): _infinite, (Normal, Gamma): _infinite,
    (Normal, Uniform): _infinite, (Normal, Gumbel): _normal_gumbel, (Normal, Laplace): _normal_laplace,
    (Uniform, Beta): _uniform_beta, (Uniform, Exponential): _uniform_exponential, (Uniform, Gamma): _uniform_gamma,
    (Uniform, Gumbel): _uniform_gumbel, (Uniform, Normal): _uniform_normal,
}
