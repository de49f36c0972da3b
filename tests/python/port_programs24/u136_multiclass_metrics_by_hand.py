import torch
import torch.nn.functional as F

logits = data(20, 4, scale=2.0)
y = ints(4, 20, seed=7)
p = logits.softmax(1)
pred = p.argmax(1)
cm = torch.zeros(4, 4, dtype=torch.long)
cm.index_put_((y, pred), torch.ones(20, dtype=torch.long), accumulate=True)
top2 = (logits.topk(2, 1).indices == y[:, None]).any(1).float().mean()
nll = F.nll_loss(torch.log(p), y)
brier = ((p - F.one_hot(y, 4)) ** 2).sum(1).mean()
conf, _ = p.max(1)
bins = torch.linspace(0, 1, 6)
which = torch.bucketize(conf, bins[1:-1])
ece = sum(((which == b).float().mean() * ((pred[which == b] == y[which == b]).float().mean() - conf[which == b].mean()).abs()) for b in range(5) if (which == b).any())
kappa_po = cm.diag().sum().float() / cm.sum()
kappa_pe = (cm.sum(0).float() * cm.sum(1).float()).sum() / cm.sum().float() ** 2
report(cm=cm, top2=top2.item(), nll=nll.item(), brier=brier.item(), ece=float(ece), kappa=((kappa_po - kappa_pe) / (1 - kappa_pe)).item(), which=which)
