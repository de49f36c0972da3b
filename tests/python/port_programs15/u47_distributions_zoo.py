import torch
from torch import distributions as D

r = {}
n = D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
r["n_lp"] = n.log_prob(torch.tensor([0.5, 0.5]))
r["n_cdf"] = n.cdf(torch.tensor([0.0, 3.0]))
r["n_icdf"] = n.icdf(torch.tensor([0.975, 0.5]))
r["n_ent"] = n.entropy()
mvn = D.MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
r["mvn_lp"] = mvn.log_prob(torch.tensor([1.0, -1.0]))
r["mvn_ent"] = mvn.entropy()
r["kl_nn"] = D.kl_divergence(D.Normal(0.0, 1.0), D.Normal(1.0, 2.0))
r["kl_cat"] = D.kl_divergence(D.Categorical(probs=torch.tensor([0.2, 0.8])), D.Categorical(logits=torch.tensor([0.0, 0.0])))
bern = D.Bernoulli(probs=torch.tensor([0.3]))
r["bern"] = [bern.log_prob(torch.tensor([1.0])).item(), bern.mean.item(), bern.variance.item()]
beta = D.Beta(torch.tensor(2.0), torch.tensor(5.0))
r["beta"] = [beta.log_prob(torch.tensor(0.3)).item(), beta.mean.item()]
g = D.Gamma(torch.tensor(3.0), torch.tensor(2.0))
r["gamma"] = [g.log_prob(torch.tensor(1.0)).item(), g.variance.item()]
r["pois"] = D.Poisson(torch.tensor(4.0)).log_prob(torch.tensor(2.0))
r["lap"] = D.Laplace(0.0, 2.0).log_prob(torch.tensor(1.0))
r["unif"] = D.Uniform(torch.tensor(-1.0), torch.tensor(3.0)).entropy()
r["dir"] = D.Dirichlet(torch.tensor([1.0, 2.0, 3.0])).log_prob(torch.tensor([0.2, 0.3, 0.5]))
r["binom"] = D.Binomial(10, probs=torch.tensor(0.3)).log_prob(torch.tensor(3.0))
r["geom"] = D.Geometric(probs=torch.tensor(0.25)).log_prob(torch.tensor(2.0))
r["expo"] = D.Exponential(torch.tensor(1.5)).cdf(torch.tensor(1.0))
ind = D.Independent(D.Normal(torch.zeros(3), torch.ones(3)), 1)
r["ind"] = [ind.log_prob(torch.ones(3)).item(), list(ind.batch_shape), list(ind.event_shape)]
tn = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.transforms.ExpTransform()])
r["lognormal_eq"] = abs(tn.log_prob(torch.tensor(2.0)).item() - D.LogNormal(0.0, 1.0).log_prob(torch.tensor(2.0)).item()) < 1e-6
mix = D.MixtureSameFamily(D.Categorical(torch.tensor([0.3, 0.7])), D.Normal(torch.tensor([-1.0, 1.0]), torch.tensor([0.5, 0.5])))
r["mix"] = mix.log_prob(torch.tensor([0.0, 1.0]))
s = n.rsample((5,))
r["rs_shape"] = s.shape
r["sample_shape"] = D.Categorical(logits=torch.zeros(3, 4)).sample((2,)).shape
r["onehot"] = D.OneHotCategorical(probs=torch.tensor([0.1, 0.9])).log_prob(torch.tensor([0.0, 1.0]))
r["stt"] = D.StudentT(3.0).log_prob(torch.tensor(0.5))
r["cauchy"] = D.Cauchy(0.0, 1.0).cdf(torch.tensor(1.0))
r["rbern"] = D.RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor(0.3)).log_prob(torch.tensor(0.4))
report(**r)
