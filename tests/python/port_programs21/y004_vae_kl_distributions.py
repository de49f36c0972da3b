import torch
from torch.distributions import Normal, kl_divergence

mu = data(4, 3, seed=1)
logvar = data(4, 3, seed=2) * 0.3
q = Normal(mu, torch.exp(0.5 * logvar))
p = Normal(torch.zeros_like(mu), torch.ones_like(mu))
kl = kl_divergence(q, p)
closed = -0.5 * (1 + logvar - mu ** 2 - logvar.exp())
z = data(4, 3, seed=3)
report(kl=kl, diff=(kl - closed).abs().max().item() < 1e-5, lp=q.log_prob(z), ent=q.entropy(),
       mean=q.mean, std=q.stddev, var=q.variance, shape=list(q.rsample().shape), bs=list(q.batch_shape))
