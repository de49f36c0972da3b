import torch
from torch.distributions import (Beta, Gamma, Dirichlet, Laplace, LogNormal, Uniform, Poisson, Binomial, TransformedDistribution,
                                 Exponential, StudentT)
from torch.distributions.transforms import TanhTransform, AffineTransform

x = torch.tensor([0.2, 0.5, 0.9])
res = {
    "beta": Beta(torch.tensor(2.0), torch.tensor(3.0)).log_prob(x),
    "gamma": Gamma(torch.tensor(2.0), torch.tensor(1.5)).log_prob(x),
    "dir": Dirichlet(torch.tensor([1.0, 2.0, 3.0])).log_prob(torch.tensor([0.2, 0.3, 0.5])),
    "lap": Laplace(0.0, 2.0).log_prob(x),
    "logn": LogNormal(0.0, 1.0).log_prob(x),
    "unif": Uniform(0.0, 2.0).log_prob(x),
    "pois": Poisson(torch.tensor(3.0)).log_prob(torch.tensor([0.0, 2.0, 5.0])),
    "binom": Binomial(10, torch.tensor(0.3)).log_prob(torch.tensor([0.0, 3.0, 10.0])),
    "exp": Exponential(torch.tensor(2.0)).log_prob(x),
    "t": StudentT(torch.tensor(3.0)).log_prob(x),
}
base = torch.distributions.Normal(torch.zeros(2), torch.ones(2))
squashed = TransformedDistribution(base, [TanhTransform(cache_size=1), AffineTransform(loc=1.0, scale=2.0)])
a = torch.tensor([0.5, 2.5])
u = torch.atanh((a - 1.0) / 2.0)
manual = base.log_prob(u) - torch.log(1 - torch.tanh(u) ** 2) - torch.log(torch.tensor(2.0))
res["squashed"] = squashed.log_prob(a)
res["manual"] = manual
res["means"] = [Beta(2.0, 3.0).mean.item(), Gamma(2.0, 1.5).variance.item(), Dirichlet(torch.tensor([1.0, 3.0])).mean]
report(**res)
