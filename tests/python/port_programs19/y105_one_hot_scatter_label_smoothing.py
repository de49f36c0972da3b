import torch
import torch.nn.functional as F
y = torch.tensor([2, 0, 1])
oh = torch.zeros(3, 4).scatter_(1, y.unsqueeze(1), 1.0)
sm = oh * 0.9 + 0.1 / 4
logits = data(3, 4, seed=11)
loss = -(sm * F.log_softmax(logits, -1)).sum(-1).mean()
report(oh=oh, fo=F.one_hot(y), fodt=F.one_hot(y).dtype, fo5=F.one_hot(y, 5).shape, loss=loss, ref=F.cross_entropy(logits, y, label_smoothing=0.1))
