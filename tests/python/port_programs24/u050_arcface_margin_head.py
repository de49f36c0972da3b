import torch
import torch.nn as nn
import torch.nn.functional as F
import math


class ArcFace(nn.Module):
    def __init__(self, d, n, s=8.0, m=0.3):
        super().__init__()
        self.W = nn.Parameter(torch.empty(n, d))
        self.s, self.m = s, m

    def forward(self, x, y):
        cos = F.linear(F.normalize(x), F.normalize(self.W)).clamp(-1 + 1e-7, 1 - 1e-7)
        theta = torch.acos(cos)
        target = torch.cos(theta + self.m)
        oh = F.one_hot(y, cos.size(1)).bool()
        logits = torch.where(oh, target, cos) * self.s
        return logits


head = det(ArcFace(4, 5))
back = det(nn.Linear(6, 4), seed=3)
x = data(10, 6)
y = ints(5, 10, seed=6)
opt = torch.optim.SGD(list(head.parameters()) + list(back.parameters()), lr=0.1, momentum=0.9)
hist = []
for _ in range(5):
    logits = head(back(x), y)
    loss = F.cross_entropy(logits, y, label_smoothing=0.1)
    opt.zero_grad(); loss.backward(); opt.step(); hist.append(loss.item())
with torch.no_grad():
    cos = F.normalize(back(x)) @ F.normalize(head.W).T
report(hist=hist, acc=(cos.argmax(1) == y).float().mean().item(), ang=torch.rad2deg(torch.acos(cos.clamp(-1, 1)))[0],
       acos_grad_edge=torch.isfinite(torch.acos(torch.tensor(1.0 - 1e-7))).item())
