import torch
import torch.nn.functional as F

C = 4
logits = data(2, C, 5, 6, scale=2.0)
target = ints(C, 2, 5, 6, seed=5)
target[0, 0, :] = 255  # ignore
pred = logits.argmax(dim=1)
ce = F.cross_entropy(logits, target, ignore_index=255)
w = torch.tensor([0.5, 1.0, 2.0, 1.0])
wce = F.cross_entropy(logits, target, weight=w, ignore_index=255)
valid = target != 255
t_clean = torch.where(valid, target, torch.zeros_like(target))
onehot = F.one_hot(t_clean, C).permute(0, 3, 1, 2).float() * valid.unsqueeze(1)
probs = logits.softmax(1)
inter = (probs * onehot).sum((0, 2, 3))
union = (probs + onehot).sum((0, 2, 3))
soft_dice = (2 * inter / union.clamp(min=1e-6))
conf = torch.zeros(C, C, dtype=torch.long)
conf.index_put_((t_clean[valid], pred[valid]), torch.ones_like(pred[valid]), accumulate=True)
per_class_iou = conf.diag().float() / (conf.sum(0) + conf.sum(1) - conf.diag()).float().clamp(min=1)
scatter_oh = torch.zeros(2, C, 5, 6).scatter_(1, t_clean.unsqueeze(1), 1.0)
report(ce=ce.item(), wce=wce.item(), soft_dice=soft_dice, conf=conf, miou=per_class_iou.mean().item(),
       same=torch.equal(scatter_oh * valid.unsqueeze(1), onehot), pixacc=(pred[valid] == target[valid]).float().mean().item())
