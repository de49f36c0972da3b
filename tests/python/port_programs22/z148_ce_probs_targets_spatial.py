import torch
import torch.nn as nn
import torch.nn.functional as F

x = data(2, 3, 4, seed=209).requires_grad_()
y = torch.tensor([[0, 1, 2, -100], [2, 2, 1, 0]])
w = torch.tensor([1.0, 0.5, 2.0])
a = F.cross_entropy(x, y, weight=w, label_smoothing=0.1)
b = F.cross_entropy(x, y, weight=w, label_smoothing=0.1, reduction="sum")
c = F.cross_entropy(x, y, reduction="none", label_smoothing=0.3)
probs = F.softmax(data(2, 3, 4, seed=210), dim=1)
d = F.cross_entropy(x, probs, weight=w, label_smoothing=0.2)
e = nn.NLLLoss(weight=w, ignore_index=2)(F.log_softmax(x, 1), y.clamp(min=0))
(a + b + d + e).backward()
report(a=a, b=b, c=c, d=d, e=e, g=x.grad[1])
