import torch
from torch import distributions as D
n1, n2 = D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0])), D.Normal(torch.tensor([0.5, 0.0]), torch.tensor([1.5, 1.0]))
mvn = D.MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1.0, 0.0], [0.5, 2.0]]))
cat = D.Categorical(probs=torch.tensor([0.2, 0.5, 0.3]))
beta = D.Beta(torch.tensor(2.0), torch.tensor(3.0))
gamma = D.Gamma(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 0.5]))
mix = D.MixtureSameFamily(D.Categorical(torch.tensor([0.3, 0.7])), D.Normal(torch.tensor([-1.0, 2.0]), torch.tensor([0.5, 1.0])))
ind = D.Independent(D.Normal(torch.zeros(3), torch.ones(3)), 1)
lap = D.Laplace(0.0, 2.0)
dirich = D.Dirichlet(torch.tensor([1.0, 2.0, 3.0]))
bern = D.Bernoulli(logits=torch.tensor([0.0, 2.0]))
pois = D.Poisson(torch.tensor(3.0))
x = torch.tensor([0.3, -0.7])
res = {
    "kl_nn": D.kl_divergence(n1, n2), "kl_cat": D.kl_divergence(cat, D.Categorical(logits=torch.zeros(3))),
    "mvn_lp": mvn.log_prob(x), "mvn_ent": mvn.entropy(), "mvn_cov": mvn.covariance_matrix,
    "cat_ent": cat.entropy(), "cat_lp": cat.log_prob(torch.tensor([0, 2])), "beta_mean": beta.mean, "beta_lp": beta.log_prob(torch.tensor(0.4)),
    "gamma_var": gamma.variance, "gamma_lp": gamma.log_prob(torch.tensor([1.0, 2.0])), "mix_lp": mix.log_prob(torch.tensor([0.0, 1.5])),
    "mix_mean": mix.mean, "ind_lp": ind.log_prob(torch.ones(2, 3)), "ind_shape": [list(ind.batch_shape), list(ind.event_shape)],
    "lap_cdf": lap.cdf(torch.tensor(1.0)), "lap_icdf": lap.icdf(torch.tensor(0.9)), "dir_mean": dirich.mean, "dir_lp": dirich.log_prob(torch.tensor([0.2, 0.3, 0.5])),
    "bern_p": bern.probs, "bern_ent": bern.entropy(), "pois_lp": pois.log_prob(torch.tensor([0.0, 2.0, 5.0])), "n_cdf": n1.cdf(x), "n_icdf": n1.icdf(torch.tensor([0.1, 0.9])),
    "sample_shape": list(n1.sample((4, 3)).shape), "rs": list(mvn.rsample((5,)).shape), "kl_mvn": D.kl_divergence(mvn, D.MultivariateNormal(torch.zeros(2), torch.eye(2))),
}
report(**res)
