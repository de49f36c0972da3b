import torch
from torch.distributions import Normal, Independent, MultivariateNormal

loc = data(3, 2, seed=1)
scale = torch.exp(data(3, 2, seed=2) * 0.2)
ind = Independent(Normal(loc, scale), 1)
v = data(3, 2, seed=3)
mvn = MultivariateNormal(loc, scale_tril=torch.diag_embed(scale))
cov = torch.tensor([[2.0, 0.5], [0.5, 1.0]])
m2 = MultivariateNormal(torch.zeros(2), covariance_matrix=cov)
report(lp=ind.log_prob(v), ent=ind.entropy(), bs=list(ind.batch_shape), es=list(ind.event_shape), mlp=mvn.log_prob(v),
       ment=mvn.entropy(), m2lp=m2.log_prob(v), m2tril=m2.scale_tril, m2prec=m2.precision_matrix,
       same=torch.allclose(ind.log_prob(v), mvn.log_prob(v), atol=1e-5), rs=list(m2.rsample((4,)).shape))
