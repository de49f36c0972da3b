import torch
from torch import distributions as D

r = {}
n = D.Normal(torch.zeros(3), torch.ones(3))
r["bs"] = [list(n.batch_shape), list(n.event_shape)]
e = n.expand((4, 3))
r["expand"] = [list(e.batch_shape), list(e.sample().shape), list(e.sample((2,)).shape)]
ind = D.Independent(n, 1)
r["ind_lp_shape"] = list(ind.log_prob(torch.zeros(5, 3)).shape)
logits = torch.tensor([[0.0, 1.0, -float("inf")], [2.0, -float("inf"), 0.5]])
cat = D.Categorical(logits=logits)
r["cat_probs"] = cat.probs
r["cat_ent"] = cat.entropy()
r["cat_lp"] = cat.log_prob(torch.tensor([1, 2]))
r["cat_enum"] = cat.enumerate_support().shape
r["cat_mode"] = cat.mode
mvn = D.MultivariateNormal(torch.zeros(2, 3), scale_tril=torch.eye(3).expand(2, 3, 3) * 2)
r["mvn_shapes"] = [list(mvn.batch_shape), list(mvn.event_shape), list(mvn.rsample((4,)).shape)]
r["mvn_lp"] = mvn.log_prob(torch.ones(2, 3))
r["mvn_cov"] = mvn.covariance_matrix[0, 0]
r["bern_logits"] = D.Bernoulli(logits=torch.tensor([0.0, 2.0])).probs
r["normal_scalar_broadcast"] = D.Normal(torch.tensor([0.0, 1.0]), 2.0).log_prob(torch.tensor(0.5))
r["uniform_support"] = [D.Uniform(0.0, 1.0).support.check(torch.tensor([0.5, 1.5])).tolist()]
r["kl_mvn"] = D.kl_divergence(mvn, D.MultivariateNormal(torch.ones(2, 3), torch.eye(3).expand(2, 3, 3)))
r["cdf_lap"] = D.Laplace(torch.tensor([0.0]), torch.tensor([1.0])).cdf(torch.tensor([-1.0, 1.0]))
r["mean_var"] = [D.Gamma(torch.tensor(2.0), torch.tensor(4.0)).mean.item(), D.Beta(torch.tensor(2.0), torch.tensor(2.0)).variance.item()]
r["has_rsample"] = [D.Normal(0.0, 1.0).has_rsample, D.Categorical(torch.ones(2)).has_rsample]
r["perplexity"] = cat.perplexity() if hasattr(cat, "perplexity") else cat.entropy().exp()
report(**r)
