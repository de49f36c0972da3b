import torch
from torch import distributions as D

loc, scale = torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0])
n = D.Normal(loc, scale)
x = torch.tensor([0.5, -1.0])
mvn = D.MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
ind = D.Independent(D.Normal(torch.zeros(3), torch.ones(3)), 1)
beta = D.Beta(torch.tensor([2.0]), torch.tensor([3.0]))
gam = D.Gamma(torch.tensor([2.0]), torch.tensor([0.5]))
bern = D.Bernoulli(logits=torch.tensor([0.3, -1.0]))
pois = D.Poisson(torch.tensor([3.0]))
lap = D.Laplace(0.0, 2.0)
dirich = D.Dirichlet(torch.tensor([1.0, 2.0, 3.0]))
mix = D.MixtureSameFamily(D.Categorical(torch.tensor([0.3, 0.7])), D.Normal(torch.tensor([-1.0, 1.0]), torch.tensor([0.5, 0.5])))
report(lp=n.log_prob(x), cdf=n.cdf(x), icdf=n.icdf(torch.tensor([0.1, 0.9])), ent=n.entropy(), mean=n.mean, var=n.variance,
       mvn=mvn.log_prob(torch.tensor([[1.0, 0.0], [0.0, 0.0]])), mvn_ent=mvn.entropy(), ind=ind.log_prob(torch.ones(2, 3)),
       ind_shape=[list(ind.batch_shape), list(ind.event_shape)], beta=beta.log_prob(torch.tensor([0.3])), bmean=beta.mean,
       gam=gam.log_prob(torch.tensor([1.5])), gmean=gam.mean, bern=bern.log_prob(torch.tensor([1.0, 0.0])), bprobs=bern.probs,
       pois=pois.log_prob(torch.tensor([2.0])), lap=lap.log_prob(torch.tensor(1.0)), dir=dirich.log_prob(torch.tensor([0.2, 0.3, 0.5])),
       mix=mix.log_prob(torch.tensor([0.0, 1.0])), kl=D.kl_divergence(n, D.Normal(torch.zeros(2), torch.ones(2))),
       rs=n.rsample((4,)).shape, has_rsample=[n.has_rsample, bern.has_rsample])
