import torch
from torch.distributions import Normal, Independent, kl_divergence

mu = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
log_sigma = torch.tensor([0.0, -0.5, 0.3], requires_grad=True)
q = Normal(mu, log_sigma.exp())
eps = data(4, 3)
z = mu + log_sigma.exp() * eps  # rsample by hand with fixed noise
lp = q.log_prob(z)
p = Normal(torch.zeros(3), torch.ones(3))
kl = kl_divergence(q, p)
kl.sum().backward()
qi = Independent(Normal(mu.detach(), log_sigma.detach().exp()), 1)
pi = Independent(Normal(torch.zeros(3), torch.ones(3)), 1)
torch.manual_seed(0)
s = q.rsample((5,))
report(lp=lp, kl=kl, mu_grad=mu.grad, ls_grad=log_sigma.grad, qi_lp=qi.log_prob(z), kl_ind=kl_divergence(qi, pi).item(),
       batch=qi.batch_shape, event=qi.event_shape, rs_shape=s.shape, rs_grad=s.requires_grad, var=q.variance, ent=qi.entropy().item())
