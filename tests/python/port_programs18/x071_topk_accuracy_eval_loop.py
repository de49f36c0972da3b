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
        self.sum, self.count = 0.0, 0

    def update(self, v, n=1):
        self.sum += v * n
        self.count += n

    @property
    def avg(self):
        return self.sum / self.count


m = det(nn.Linear(5, 6)).eval()
X, Y = data(10, 5, seed=1), ints(6, 10, seed=2)
t1, t5, lm = AverageMeter(), AverageMeter(), AverageMeter()
with torch.inference_mode():
    for i in range(0, 10, 4):
        out = m(X[i:i + 4])
        a1, a5 = accuracy(out, Y[i:i + 4], topk=(1, 5))
        t1.update(a1.item(), out.size(0))
        t5.update(a5.item(), out.size(0))
        lm.update(nn.functional.cross_entropy(out, Y[i:i + 4]).item(), out.size(0))
report(top1=t1.avg, top5=t5.avg, loss=lm.avg, grad=out.requires_grad)
