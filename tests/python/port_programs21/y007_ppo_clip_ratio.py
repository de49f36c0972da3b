import torch
from torch.distributions import Categorical

logits_old = data(6, 4, seed=1)
logits_new = (logits_old + 0.3 * data(6, 4, seed=2)).requires_grad_()
actions = ints(4, 6, seed=3)
adv = data(6, seed=4)
old = Categorical(logits=logits_old).log_prob(actions)
dist = Categorical(logits=logits_new)
new = dist.log_prob(actions)
ratio = torch.exp(new - old)
s1 = ratio * adv
s2 = torch.clamp(ratio, 0.8, 1.2) * adv
loss = -torch.min(s1, s2).mean()
loss.backward()
kl = (old - new).mean()
clipfrac = ((ratio - 1.0).abs() > 0.2).float().mean()
report(ratio=ratio.detach(), loss=loss.item(), grad=logits_new.grad, kl=kl.item(), clipfrac=clipfrac.item(),
       ent=dist.entropy().detach())
