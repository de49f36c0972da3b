import torch
import torch.nn.functional as F
n_cls = 4
pred = data(2, n_cls, 6, 6).argmax(1)
target = ints(n_cls, 2, 6, 6)
target[0, 0, :3] = 255
valid = target != 255
hist = torch.bincount(n_cls * target[valid] + pred[valid], minlength=n_cls ** 2).reshape(n_cls, n_cls)
iou = torch.diag(hist) / (hist.sum(0) + hist.sum(1) - torch.diag(hist))
miou = torch.nanmean(iou)
pix_acc = torch.diag(hist).sum() / hist.sum()
logits = data(2, n_cls, 6, 6, seed=7).requires_grad_()
ce = F.cross_entropy(logits, target, ignore_index=255)
probs = logits.softmax(1)
oh = F.one_hot(target.clamp(max=n_cls - 1), n_cls).permute(0, 3, 1, 2).float() * valid.unsqueeze(1)
dice = 1 - (2 * (probs * oh).sum((0, 2, 3)) + 1) / (probs.sum((0, 2, 3)) + oh.sum((0, 2, 3)) + 1)
(ce + dice.mean()).backward()
up = F.interpolate(logits.detach(), scale_factor=2, mode="nearest")
report(hist=hist, iou=iou, miou=miou, acc=pix_acc, ce=ce, dice=dice, g=logits.grad[0, :, 0, 0], up=list(up.shape), hdt=hist.dtype)
