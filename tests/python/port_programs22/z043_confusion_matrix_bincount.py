import torch

num_classes = 4
target = ints(4, 30, seed=49)
pred = ints(4, 30, seed=50)
pred[:10] = target[:10]
cm = torch.bincount(num_classes * target + pred, minlength=num_classes ** 2).reshape(num_classes, num_classes)
tp = cm.diag()
precision = tp.float() / cm.sum(0).clamp(min=1)
recall = tp.float() / cm.sum(1).clamp(min=1)
f1 = 2 * precision * recall / (precision + recall + 1e-12)
iou = tp.float() / (cm.sum(0) + cm.sum(1) - tp).float()
acc = tp.sum().item() / cm.sum().item()
w = torch.linspace(0.5, 1.5, 30)
wcm = torch.bincount(num_classes * target + pred, weights=w, minlength=16).view(4, 4)
report(cm=cm, precision=precision, recall=recall, f1=f1, macro=f1.mean(), miou=iou.nanmean(), acc=acc, wcm=wcm, dtype=wcm.dtype)
