import torch

pred = torch.tensor([0, 2, 1, 1, 0, 2, 2, 1])
true = torch.tensor([0, 1, 1, 1, 0, 2, 0, 2])
n = 3
cm = torch.bincount(true * n + pred, minlength=n * n).reshape(n, n)
w = torch.tensor([1.0, 0.5, 2.0, 1.0, 1.0, 0.5, 1.0, 2.0])
wcm = torch.bincount(true * n + pred, weights=w, minlength=n * n).reshape(n, n)
recall = cm.diag() / cm.sum(1).clamp(min=1)
precision = cm.diag() / cm.sum(0).clamp(min=1)
iou = cm.diag() / (cm.sum(0) + cm.sum(1) - cm.diag())
kappa_po = cm.diag().sum() / cm.sum()
kappa_pe = (cm.sum(0) * cm.sum(1)).sum() / cm.sum() ** 2
report(cm=cm, wcm=wcm, rec=recall, prec=precision, iou=iou, kappa=(kappa_po - kappa_pe) / (1 - kappa_pe), dt=cm.dtype)
