import torch
logits = data(6, 5, seed=13)
y = torch.tensor([0, 1, 2, 3, 4, 0])
_, pred = logits.topk(3, 1, True, True)
pred = pred.t()
correct = pred.eq(y.view(1, -1).expand_as(pred))
res = [correct[:k].reshape(-1).float().sum(0, keepdim=True).mul_(100.0 / 6) for k in (1, 3)]
report(res=res, pred=pred, correct=correct)
