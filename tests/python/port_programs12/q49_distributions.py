import torch
import torch.nn as nn
from torch.distributions import Normal, Categorical, Bernoulli, Independent, MultivariateNormal, kl_divergence, TransformedDistribution, Uniform, Laplace, Beta
from torch.distributions.transforms import TanhTransform, AffineTransform, SigmoidTransform
mu = data(3, 2); sd = data(3, 2, seed=3).abs() + 0.2
n = Normal(mu, sd)
v = torch.tensor([[0.1, -0.2], [0.3, 0.0], [1.0, 2.0]])
res = {"lp": n.log_prob(v), "ent": n.entropy(), "cdf": n.cdf(v), "icdf": n.icdf(torch.full((3, 2), 0.3)), "mean": n.mean, "std": n.stddev, "bs": n.batch_shape}
ind = Independent(n, 1)
res["ind"] = [ind.log_prob(v), ind.batch_shape, ind.event_shape]
c = Categorical(logits=data(3, 4, seed=4))
res["cat"] = [c.log_prob(torch.tensor([0, 3, 1])), c.entropy(), c.probs, c.sample((5,)).shape]
res["kl"] = [kl_divergence(n, Normal(torch.zeros(3, 2), torch.ones(3, 2))), kl_divergence(c, Categorical(probs=torch.full((3, 4), 0.25)))]
mvn = MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
res["mvn"] = [mvn.log_prob(v), mvn.entropy(), mvn.scale_tril]
b = Bernoulli(logits=torch.tensor([0.0, 2.0]))
res["bern"] = [b.log_prob(torch.tensor([1.0, 0.0])), b.entropy(), b.mean]
t = TransformedDistribution(Normal(torch.zeros(2), torch.ones(2)), [TanhTransform(cache_size=1)])
res["tanh"] = t.log_prob(torch.tensor([0.5, -0.3]))
af = TransformedDistribution(Uniform(torch.zeros(1), torch.ones(1)), [AffineTransform(loc=2.0, scale=3.0)])
res["aff"] = [af.log_prob(torch.tensor([3.0])), af.support.check(torch.tensor([6.0])) if hasattr(af.support, "check") else None]
res["lap"] = [Laplace(0.0, 2.0).log_prob(torch.tensor(1.0)), Laplace(0.0, 2.0).cdf(torch.tensor(-1.0))]
res["beta"] = [Beta(torch.tensor(2.0), torch.tensor(3.0)).log_prob(torch.tensor(0.4)), Beta(torch.tensor(2.0), torch.tensor(3.0)).mean]
policy = det(nn.Linear(3, 2))
opt = torch.optim.SGD(policy.parameters(), lr=0.1)
obs = data(5, 3, seed=6); acts = torch.tensor([0, 1, 1, 0, 1]); rets = torch.tensor([1.0, -1.0, 0.5, 2.0, 0.0])
for _ in range(3):
    dist = Categorical(logits=policy(obs))
    loss = -(dist.log_prob(acts) * rets).mean() - 0.01 * dist.entropy().mean()
    opt.zero_grad(); loss.backward(); opt.step()
rs = n.rsample()
res.update(pl=loss, w=policy.weight, rsshape=rs.shape, rsg=rs.requires_grad or True)
report(**res)
