import torch
import torch.nn.functional as F

logits = data(5, 4, seed=3)
target = torch.tensor([0, 3, 1, 1, 2])
eps = 0.2
logp = F.log_softmax(logits, -1)
nll = -logp.gather(1, target[:, None]).squeeze(1)
smooth = -logp.mean(-1)
manual = ((1 - eps) * nll + eps * smooth).mean()
builtin = F.cross_entropy(logits, target, label_smoothing=eps)
w = torch.tensor([1.0, 2.0, 0.5, 1.0])
weighted = F.cross_entropy(logits, target, weight=w, label_smoothing=eps)
soft = F.cross_entropy(logits, F.one_hot(target, 4).float() * 0.9 + 0.025)
report(manual=manual, builtin=builtin, weighted=weighted, soft=soft, nll=F.nll_loss(logp, target, reduction="sum"))
