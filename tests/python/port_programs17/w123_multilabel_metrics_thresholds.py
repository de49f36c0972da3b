import torch

probs = torch.sigmoid(data(8, 3, seed=1) * 2)
target = (data(8, 3, seed=2) > 0).long()
pred = (probs > 0.5).long()
tp = (pred & target).sum(0)
fp = (pred & (1 - target)).sum(0)
fn = ((1 - pred) & target).sum(0)
prec = tp / (tp + fp).clamp(min=1)
rec = tp / (tp + fn).clamp(min=1)
f1 = torch.where(prec + rec > 0, 2 * prec * rec / (prec + rec), torch.zeros_like(prec))
thr = torch.linspace(0, 1, 5)
curve = ((probs[None] > thr[:, None, None]).long() == target[None]).float().mean((1, 2))
order = probs[:, 0].argsort(descending=True)
tps = target[order, 0].cumsum(0)
ap = (tps / torch.arange(1, 9) * target[order, 0]).sum() / target[:, 0].sum()
report(tp=tp, prec=prec, rec=rec, f1=f1, macro=f1.mean(), curve=curve, ap=ap, hamming=(pred != target).float().mean(),
       exact=(pred == target).all(1).float().mean())
