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


class AverageMeter:
    def __init__(self):
        self.val = self.avg = self.sum = self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


out, tgt = data(16, 6), ints(6, 16)
top1, top5 = AverageMeter(), AverageMeter()
for i in range(0, 16, 5):
    a1, a5 = accuracy(out[i:i + 5], tgt[i:i + 5], topk=(1, 5))
    top1.update(a1[0], out[i:i + 5].size(0))
    top5.update(a5[0], out[i:i + 5].size(0))
report(top1=top1.avg, top5=top5.avg, last=top1.val, n=top1.count)
