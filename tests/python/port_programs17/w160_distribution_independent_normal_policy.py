import torch
import torch.nn as nn
from torch.distributions import Normal, Independent, Categorical

net = det(nn.Linear(3, 4))
obs = data(5, 3, seed=1)
out = net(obs)
mu, log_std = out[:, :2], out[:, 2:].clamp(-5, 2)
dist = Independent(Normal(mu, log_std.exp()), 1)
acts = data(5, 2, seed=2)
lp = dist.log_prob(acts)
ent = dist.entropy()
adv = data(5, seed=3)
loss = -(lp * adv).mean() - 0.01 * ent.mean()
loss.backward()
cat = Categorical(logits=out)
report(lp=lp, ent=ent, loss=loss, g=net.weight.grad, bs=list(dist.batch_shape), es=list(dist.event_shape), clp=cat.log_prob(torch.tensor([0, 1, 2, 3, 0])),
       cent=cat.entropy(), probs=cat.probs[0], mode=cat.mode if hasattr(cat, "mode") else None, nmean=dist.mean[0], nvar=dist.variance[0])
