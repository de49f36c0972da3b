import torch
from torch.distributions import Categorical, Bernoulli

probs = torch.tensor([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]])
c = Categorical(probs=probs)
g = torch.Generator().manual_seed(0)
b = Bernoulli(logits=torch.tensor([0.0, 2.0, -1.0]))
samples = c.sample((1000,))
freq = torch.stack([(samples[:, 0] == k).float().mean() for k in range(3)])
report(lp=c.log_prob(torch.tensor([2, 0])), ent=c.entropy(), logits=c.logits, n=c.param_shape,
       bp=b.probs, blp=b.log_prob(torch.tensor([1.0, 0.0, 1.0])), bent=b.entropy(),
       freq_close=bool((freq - probs[0]).abs().max() < 0.06), sshape=list(samples.shape), sdtype=samples.dtype,
       enum=c.enumerate_support())
