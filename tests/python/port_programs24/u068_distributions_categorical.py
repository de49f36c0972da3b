import torch
from torch.distributions import Categorical, OneHotCategorical, Bernoulli, kl_divergence

logits = data(3, 4)
c = Categorical(logits=logits)
probs = c.probs
acts = torch.tensor([0, 3, 2])
lp = c.log_prob(acts)
ent = c.entropy()
c2 = Categorical(probs=torch.tensor([[0.1, 0.2, 0.3, 0.4]]))
kl = kl_divergence(c, c2)
b = Bernoulli(logits=torch.tensor([0.0, 2.0, -1.0]))
blp = b.log_prob(torch.tensor([1.0, 0.0, 1.0]))
oh = OneHotCategorical(probs=probs)
ohlp = oh.log_prob(torch.nn.functional.one_hot(acts, 4).float())
torch.manual_seed(0)
samples = c.sample((100,))
masked_logits = logits.masked_fill(torch.tensor([[True, False, False, False]] * 3), float("-inf"))
cm = Categorical(logits=masked_logits)
report(probs=probs, lp=lp, ent=ent, kl=kl, blp=blp, bent=b.entropy(), ohlp=ohlp, s_shape=samples.shape, s_range=bool(((samples >= 0) & (samples < 4)).all()),
       cm_ent=cm.entropy(), cm_p0=cm.probs[:, 0], mode=c.mode, norm_logits=c.logits.logsumexp(-1))
