import torch
from torch.distributions import Normal, Independent, kl_divergence, Bernoulli, Beta, Dirichlet, MultivariateNormal, Laplace

mu = torch.tensor([0.5, -1.0], requires_grad=True)
sigma = torch.tensor([1.0, 0.5], requires_grad=True)
q = Normal(mu, sigma)
p = Normal(torch.zeros(2), torch.ones(2))
eps = torch.tensor([0.3, -0.2])
z = mu + sigma * eps
kl = kl_divergence(q, p).sum()
(kl + q.log_prob(z).sum()).backward()
ind = Independent(Normal(torch.zeros(3, 2), torch.ones(3, 2)), 1)
mvn = MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
bern = Bernoulli(logits=torch.tensor([0.0, 2.0]))
report(kl=kl.item(), gmu=mu.grad, gs=sigma.grad, ind_shape=[list(ind.batch_shape), list(ind.event_shape)], ind_lp=ind.log_prob(torch.ones(3, 2)),
       mvn_lp=mvn.log_prob(torch.tensor([1.0, -1.0])), mvn_ent=mvn.entropy(), bern=bern.probs, bern_lp=bern.log_prob(torch.tensor([1.0, 0.0])),
       beta=Beta(torch.tensor(2.0), torch.tensor(3.0)).log_prob(torch.tensor(0.4)), beta_mean=Beta(2.0, 3.0).mean,
       dir_lp=Dirichlet(torch.tensor([1.0, 2.0, 3.0])).log_prob(torch.tensor([0.2, 0.3, 0.5])),
       lap_cdf=Laplace(0.0, 2.0).cdf(torch.tensor([-1.0, 1.0])), icdf=Normal(0.0, 1.0).icdf(torch.tensor([0.975])),
       kl_bern=kl_divergence(bern, Bernoulli(probs=torch.tensor([0.5, 0.5]))))
