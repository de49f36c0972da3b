import torch
from torch.distributions import Normal, Categorical, Independent, MultivariateNormal, Bernoulli, OneHotCategorical
n = Normal(torch.zeros(3, 2), torch.ones(3, 2))
ind = Independent(n, 1)
c = Categorical(logits=torch.zeros(4, 5))
mvn = MultivariateNormal(torch.zeros(2, 3), torch.eye(3))
b = Bernoulli(probs=torch.full((2,), 0.5))
oh = OneHotCategorical(probs=torch.tensor([0.2, 0.8]))
res = {"n": [list(n.batch_shape), list(n.event_shape), list(n.sample((5,)).shape)], "ind": [list(ind.batch_shape), list(ind.event_shape), list(ind.log_prob(torch.zeros(3, 2)).shape)],
       "c": [list(c.sample((2,)).shape), list(c.log_prob(torch.zeros(4, dtype=torch.long)).shape), list(c.enumerate_support().shape)],
       "mvn": [list(mvn.batch_shape), list(mvn.event_shape), list(mvn.log_prob(torch.zeros(2, 3)).shape)], "b": [b.sample().dtype, list(b.entropy().shape)],
       "oh": [list(oh.sample().shape), oh.sample().sum().item()], "expand": list(n.expand((4, 3, 2)).batch_shape), "ent": ind.entropy(), "lp_b": b.log_prob(torch.tensor([1.0, 0.0]))}
report(**res)
