import torch
from torch import distributions as D
n = D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
c = D.Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))
b = D.Bernoulli(logits=torch.tensor([0.0, 2.0]))
u = D.Uniform(0.0, 4.0)
e = D.Exponential(torch.tensor([2.0]))
report(nlp=n.log_prob(torch.tensor([0.5, -1.0])), nent=n.entropy(), ncdf=n.cdf(torch.tensor([0.0, 1.0])), nicdf=n.icdf(torch.tensor([0.975, 0.5])),
       clp=c.log_prob(torch.tensor([0, 2])), cent=c.entropy(), blp=b.log_prob(torch.tensor([1.0, 0.0])), bent=b.entropy(), bmean=b.mean,
       ulp=u.log_prob(torch.tensor(1.0)), uent=u.entropy(), elp=e.log_prob(torch.tensor([0.5])), emean=e.mean, evar=e.variance, nvar=n.variance, nstd=n.stddev)
