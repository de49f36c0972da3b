import math
import torch
X = torch.cat([data(30, 2) * 0.5 + torch.tensor([2.0, 2.0]), data(30, 2, seed=3) * 0.7 - 1.0])
K = 2
mu = X[[0, 45]].clone()
cov = torch.eye(2).repeat(K, 1, 1)
pi = torch.full((K,), 1.0 / K)
lls = []
for it in range(6):
    dists = torch.distributions.MultivariateNormal(mu, covariance_matrix=cov)
    logp = dists.log_prob(X.unsqueeze(1)) + pi.log()
    ll = torch.logsumexp(logp, dim=1)
    resp = (logp - ll.unsqueeze(1)).exp()
    Nk = resp.sum(0)
    mu = (resp.T @ X) / Nk.unsqueeze(1)
    diff = X.unsqueeze(1) - mu
    cov = torch.einsum("nk,nki,nkj->kij", resp, diff, diff) / Nk.view(-1, 1, 1) + 1e-4 * torch.eye(2)
    pi = Nk / X.size(0)
    lls.append(ll.sum().item())
report(lls=lls, mu=mu, pi=pi, cov=cov[0], labels=resp.argmax(1)[::10])
