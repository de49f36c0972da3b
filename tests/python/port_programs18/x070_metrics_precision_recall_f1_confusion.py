import torch

preds = torch.tensor([0, 2, 1, 1, 0, 2, 2, 1, 0, 0])
target = torch.tensor([0, 1, 1, 1, 2, 2, 2, 0, 0, 1])
C = 3
cm = torch.bincount(target * C + preds, minlength=C * C).reshape(C, C)
tp = cm.diag().float()
prec = tp / cm.sum(0).clamp(min=1)
rec = tp / cm.sum(1).clamp(min=1)
f1 = torch.where(prec + rec > 0, 2 * prec * rec / (prec + rec), torch.zeros_like(prec))
acc = (preds == target).float().mean()
probs = torch.sigmoid(data(10, seed=5))
lab = (torch.arange(10) % 2).bool()
thr = torch.linspace(0, 1, 5)
tpr = torch.stack([((probs >= t) & lab).sum() / lab.sum() for t in thr])
fpr = torch.stack([((probs >= t) & ~lab).sum() / (~lab).sum() for t in thr])
auc = torch.trapz(tpr.flip(0), fpr.flip(0))
report(cm=cm, prec=prec, rec=rec, f1=f1, macro=f1.mean(), acc=acc, tpr=tpr, fpr=fpr, auc=auc)
