import torch
from torch import distributions as D
p = D.Poisson(torch.tensor([2.0]))
bi = D.Binomial(10, torch.tensor([0.3]))
g = D.Gamma(torch.tensor([2.0]), torch.tensor([3.0]))
be = D.Beta(torch.tensor([2.0]), torch.tensor([5.0]))
la = D.Laplace(0.0, 2.0)
ln = D.LogNormal(0.0, 0.5)
mn = D.Multinomial(4, probs=torch.tensor([0.2, 0.3, 0.5]))
di = D.Dirichlet(torch.tensor([1.0, 2.0, 3.0]))
report(p=p.log_prob(torch.tensor([3.0])), bi=bi.log_prob(torch.tensor([4.0])), bimean=bi.mean, g=g.log_prob(torch.tensor([0.5])), gent=g.entropy(),
       be=be.log_prob(torch.tensor([0.2])), bemean=be.mean, la=la.log_prob(torch.tensor(1.0)), laent=la.entropy(), ln=ln.log_prob(torch.tensor(2.0)), lnmean=ln.mean,
       mn=mn.log_prob(torch.tensor([1.0, 1.0, 2.0])), di=di.log_prob(torch.tensor([0.2, 0.3, 0.5])), dient=di.entropy(), dimean=di.mean)
