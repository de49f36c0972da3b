import torch
from torch import distributions as D
torch.manual_seed(0)
n = D.Normal(torch.zeros(3), torch.ones(3))
s1 = n.sample((4,))
torch.manual_seed(0)
s2 = n.sample((4,))
r = n.rsample((2,))
c = D.Categorical(logits=torch.zeros(2, 5)).sample((7,))
report(same=torch.equal(s1, s2), shape=s1.shape, rshape=r.shape, rgrad=r.requires_grad, cshape=c.shape, cdt=c.dtype, crange=bool(((c >= 0) & (c < 5)).all()),
       bshape=D.Bernoulli(0.5).sample((3, 2)).shape, ushape=D.Uniform(torch.zeros(2), torch.ones(2)).sample().shape,
       bs=n.batch_shape, es=n.event_shape, mvn_es=D.MultivariateNormal(torch.zeros(2), torch.eye(2)).event_shape)
