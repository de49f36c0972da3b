import torch
def accuracy(output, target, topk=(1,)):
    with torch.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t()
        correct = pred.eq(target.view(1, -1).expand_as(pred))
        res = []
        for k in topk:
            correct_k = correct[:k].reshape(-1).float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / batch_size))
        return res
class AverageMeter(object):
    def __init__(self): self.reset()
    def reset(self): self.val = 0; self.avg = 0; self.sum = 0; self.count = 0
    def update(self, val, n=1):
        self.val = val; self.sum += val * n; self.count += n; self.avg = self.sum / self.count
logits = data(20, 6); target = ints(6, 20)
top1, top3 = accuracy(logits, target, topk=(1, 3))
meter = AverageMeter()
for chunk_l, chunk_t in zip(logits.chunk(4), target.chunk(4)):
    meter.update(accuracy(chunk_l, chunk_t)[0].item(), chunk_l.size(0))
num_classes = 6
preds = logits.argmax(dim=1)
cm = torch.bincount(num_classes * target + preds, minlength=num_classes ** 2).reshape(num_classes, num_classes)
tp = cm.diag().float()
precision = tp / cm.sum(0).clamp(min=1)
recall = tp / cm.sum(1).clamp(min=1)
f1 = 2 * precision * recall / (precision + recall + 1e-8)
cm2 = torch.zeros(num_classes, num_classes, dtype=torch.int64)
for t, p in zip(target.view(-1), preds.view(-1)):
    cm2[t.long(), p.long()] += 1
probs = torch.softmax(logits, 1)
conf, _ = probs.max(1)
ece_bins = torch.linspace(0, 1, 6)
correct = preds.eq(target)
ece = torch.zeros(1)
for lo, hi in zip(ece_bins[:-1], ece_bins[1:]):
    in_bin = conf.gt(lo.item()) * conf.le(hi.item())
    prop = in_bin.float().mean()
    if prop.item() > 0:
        ece += torch.abs(conf[in_bin].mean() - correct[in_bin].float().mean()) * prop
binary = (torch.sigmoid(logits[:, 0]) > 0.5).long(); bt = (target % 2)
iou = ((binary & bt).sum().float() / (binary | bt).sum().float()).item()
report(top1=top1, top3=top3, avg=meter.avg, cm=cm, same=torch.equal(cm, cm2), prec=precision, rec=recall, f1=f1, ece=ece, iou=iou,
       cmdtype=cm.dtype, top1dt=top1.dtype, pe=preds.eq(target).sum().item())
