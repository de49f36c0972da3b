import torch
from torch.distributions import Categorical, Normal, Uniform, Bernoulli

torch.manual_seed(0)
c = Categorical(probs=torch.tensor([0.2, 0.5, 0.3]))
s = c.sample((30000,))
freq = torch.bincount(s, minlength=3).float() / 30000
n = Normal(torch.tensor([1.0, -2.0]), torch.tensor([0.5, 2.0])).sample((30000,))
u = Uniform(-1.0, 3.0).sample((30000,))
b = Bernoulli(probs=0.25).sample((30000,))
report(freq=bool((freq - torch.tensor([0.2, 0.5, 0.3])).abs().max() < 0.02), nm=bool((n.mean(0) - torch.tensor([1.0, -2.0])).abs().max() < 0.05),
       ns=bool((n.std(0) - torch.tensor([0.5, 2.0])).abs().max() < 0.05), u=[u.min().item() >= -1, u.max().item() <= 3],
       b=abs(b.mean().item() - 0.25) < 0.02, shapes=[list(s.shape), list(n.shape), list(u.shape)], sdt=s.dtype, bdt=b.dtype,
       ulp=Uniform(-1.0, 3.0).log_prob(torch.tensor(0.5)), uent=Uniform(0.0, 2.0).entropy())
