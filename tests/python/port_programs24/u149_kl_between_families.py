import torch
from torch.distributions import (Normal, Laplace, Exponential, Gamma, Beta, Uniform, Bernoulli, Categorical, Poisson, Dirichlet,
                                 MultivariateNormal, kl_divergence)

res = {
    "normal_normal": kl_divergence(Normal(0.0, 1.0), Normal(1.0, 2.0)).item(),
    "laplace": kl_divergence(Laplace(0.0, 1.0), Laplace(0.5, 2.0)).item(),
    "exp": kl_divergence(Exponential(torch.tensor(1.0)), Exponential(torch.tensor(3.0))).item(),
    "gamma": kl_divergence(Gamma(torch.tensor(2.0), torch.tensor(1.0)), Gamma(torch.tensor(3.0), torch.tensor(2.0))).item(),
    "beta": kl_divergence(Beta(torch.tensor(2.0), torch.tensor(3.0)), Beta(torch.tensor(1.0), torch.tensor(1.0))).item(),
    "uniform": kl_divergence(Uniform(0.0, 1.0), Uniform(-1.0, 2.0)).item(),
    "bern": kl_divergence(Bernoulli(torch.tensor(0.3)), Bernoulli(torch.tensor(0.6))).item(),
    "poisson": kl_divergence(Poisson(torch.tensor(2.0)), Poisson(torch.tensor(4.0))).item(),
    "dirichlet": kl_divergence(Dirichlet(torch.tensor([1.0, 2.0])), Dirichlet(torch.tensor([2.0, 2.0]))).item(),
    "mvn": kl_divergence(MultivariateNormal(torch.zeros(2), torch.eye(2)), MultivariateNormal(torch.ones(2), 2 * torch.eye(2))).item(),
    "uniform_normal": kl_divergence(Uniform(0.0, 1.0), Normal(0.0, 1.0)).item(),
    "exp_gamma": kl_divergence(Exponential(torch.tensor(2.0)), Gamma(torch.tensor(1.5), torch.tensor(1.0))).item(),
    "normal_exp": kl_divergence(Normal(0.0, 1.0), Exponential(torch.tensor(1.0))).item(),
    "beta_uniform": kl_divergence(Beta(torch.tensor(2.0), torch.tensor(2.0)), Uniform(0.0, 1.0)).item(),
}
report(**res)
