import torch
from torch.distributions import Gamma, Beta, Dirichlet, StudentT, LogNormal

g = Gamma(torch.tensor([2.0, 5.0]), torch.tensor([1.0, 2.0]))
b = Beta(torch.tensor([2.0]), torch.tensor([5.0]))
d = Dirichlet(torch.tensor([1.0, 2.0, 3.0]))
s = StudentT(torch.tensor(4.0), torch.tensor(1.0), torch.tensor(2.0))
ln = LogNormal(torch.tensor(0.5), torch.tensor(0.3))
report(g_mean=g.mean, g_var=g.variance, g_mode=g.mode if hasattr(g, "mode") else None, g_ent=g.entropy(), b_mean=b.mean, b_var=b.variance, b_ent=b.entropy(),
       d_mean=d.mean, d_var=d.variance, d_ent=d.entropy().item(), s_mean=s.mean.item(), s_var=s.variance.item(), s_ent=s.entropy().item(),
       ln_mean=ln.mean.item(), ln_var=ln.variance.item(), ln_ent=ln.entropy().item(), g_cdf=g.cdf(torch.tensor([1.0, 1.0])))
