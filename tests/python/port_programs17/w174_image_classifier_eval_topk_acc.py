import torch
import torch.nn as nn


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


class AverageMeter:
    def __init__(self):
        self.val = self.avg = self.sum = self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


model = det(nn.Sequential(nn.Flatten(), nn.Linear(12, 6)))
model.eval()
top1, top3 = AverageMeter(), AverageMeter()
for b in range(3):
    x = data(4, 3, 2, 2, seed=b)
    y = ints(6, 4, seed=b + 10)
    out = model(x)
    a1, a3 = accuracy(out, y, topk=(1, 3))
    top1.update(a1[0], x.size(0))
    top3.update(a3[0], x.size(0))
report(t1=top1.avg, t3=top3.avg, val=top1.val, cnt=top1.count)
