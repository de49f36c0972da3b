import torch
from torch.distributions import MultivariateNormal, kl_divergence

A = data(3, 3)
cov = A @ A.T + 0.5 * torch.eye(3)
mean = torch.tensor([1.0, 0.0, -1.0])
mvn = MultivariateNormal(mean, covariance_matrix=cov)
x = data(5, 3, seed=4)
lp = mvn.log_prob(x)
L = torch.linalg.cholesky(cov)
mvn_t = MultivariateNormal(mean, scale_tril=L)
diff = x - mean
sol = torch.linalg.solve_triangular(L, diff.unsqueeze(-1), upper=False).squeeze(-1)
manual = -0.5 * (sol ** 2).sum(-1) - torch.log(L.diagonal()).sum() - 1.5 * torch.log(torch.tensor(2 * torch.pi))
prec = MultivariateNormal(mean, precision_matrix=torch.linalg.inv(cov))
std = MultivariateNormal(torch.zeros(3), torch.eye(3))
report(lp=lp, lp_t=mvn_t.log_prob(x), manual=manual, prec=prec.log_prob(x), ent=mvn.entropy().item(), kl=kl_divergence(mvn, std).item(),
       var=mvn.variance, tril=mvn.scale_tril, batch=MultivariateNormal(torch.zeros(2, 3), cov).batch_shape)
