import math
import torch
from torch.distributions import Normal

mu = data(4, 2, seed=1)
log_std = torch.clamp(data(4, 2, seed=2), -20, 2)
std = log_std.exp()
dist = Normal(mu, std)
eps = data(4, 2, seed=3)
u = mu + std * eps
a = torch.tanh(u)
logp = dist.log_prob(u).sum(-1) - (2 * (math.log(2) - u - torch.nn.functional.softplus(-2 * u))).sum(-1)
logp2 = dist.log_prob(u).sum(-1) - torch.log(1 - a.pow(2) + 1e-6).sum(-1)
cdf = dist.cdf(torch.zeros(4, 2))
icdf = Normal(0.0, 1.0).icdf(torch.tensor([0.025, 0.5, 0.975]))
report(a=a, logp=logp, logp2=logp2, cdf=cdf, icdf=icdf, scalar=Normal(0.0, 2.0).log_prob(torch.tensor(1.0)),
       ent=Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 3.0])).entropy())
