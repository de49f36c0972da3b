import torch
from torch.distributions import Categorical

logits = data(3, 5, seed=1)
mask = torch.tensor([[1, 1, 0, 1, 0], [1, 0, 0, 0, 0], [1, 1, 1, 1, 1]], dtype=torch.bool)
masked = torch.where(mask, logits, torch.tensor(-1e8))
d = Categorical(logits=masked)
d2 = Categorical(logits=logits.masked_fill(~mask, float("-inf")))
acts = torch.tensor([3, 0, 4])
report(p=d.probs, ent=d.entropy(), lp=d.log_prob(acts), ent2=d2.entropy(), lp2=d2.log_prob(acts), mode=d.mode,
       argmax=d.probs.argmax(-1))
