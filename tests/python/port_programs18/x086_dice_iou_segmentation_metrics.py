import torch
import torch.nn.functional as F

logits = data(2, 3, 4, 4, seed=2)
target = ints(3, 2, 4, 4, seed=3)
pred = logits.argmax(1)
oh_t = F.one_hot(target, 3).permute(0, 3, 1, 2).float()
oh_p = F.one_hot(pred, 3).permute(0, 3, 1, 2).float()
inter = (oh_t * oh_p).sum((0, 2, 3))
union = oh_t.sum((0, 2, 3)) + oh_p.sum((0, 2, 3)) - inter
iou = inter / union.clamp(min=1e-6)
prob = logits.softmax(1)
dice = 1 - ((2 * (prob * oh_t).sum((2, 3)) + 1) / (prob.sum((2, 3)) + oh_t.sum((2, 3)) + 1)).mean()
pix_acc = (pred == target).float().mean()
report(iou=iou, miou=iou.nanmean(), dice=dice, acc=pix_acc, cnt=torch.bincount(pred.flatten(), minlength=3))
