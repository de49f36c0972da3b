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

out = data(16, 10, seed=53)
tgt = ints(10, 16, seed=54)
top1, top3, top5 = accuracy(out, tgt, topk=(1, 3, 5))
in_topk = (out.topk(5, dim=1).indices == tgt.unsqueeze(1)).any(dim=1)
rank = (out > out.gather(1, tgt.unsqueeze(1))).sum(1)
report(top1=top1, top3=top3, top5=top5, in_topk=in_topk, rank=rank, mrr=(1.0 / (rank + 1).float()).mean())
