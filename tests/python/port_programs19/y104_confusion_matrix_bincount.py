import torch
pred = torch.tensor([0, 1, 2, 2, 1, 0, 2])
tgt = torch.tensor([0, 2, 2, 1, 1, 0, 2])
cm = torch.bincount(tgt * 3 + pred, minlength=9).view(3, 3)
tp = cm.diag()
prec = tp / cm.sum(0).clamp(min=1)
rec = tp.float() / cm.sum(1)
f1 = 2 * prec * rec / (prec + rec)
report(cm=cm, prec=prec, rec=rec, f1=f1, acc=(pred == tgt).float().mean(), macro=f1.nanmean(), pdt=prec.dtype)
