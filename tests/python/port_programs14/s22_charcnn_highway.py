import torch
import torch.nn as nn
import torch.nn.functional as F


class Highway(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.h = nn.Linear(d, d)
        self.t = nn.Linear(d, d)

    def forward(self, x):
        t = torch.sigmoid(self.t(x))
        return t * F.relu(self.h(x)) + (1 - t) * x


class CharCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(26, 5)
        self.convs = nn.ModuleList([nn.Conv1d(5, 4, k) for k in (2, 3, 4)])
        self.hw = Highway(12)

    def forward(self, chars):
        e = self.emb(chars).transpose(1, 2)
        pooled = [torch.max(c(e), dim=2)[0] for c in self.convs]
        return self.hw(torch.cat(pooled, 1))


m = det(CharCNN())
chars = ints(26, 3, 8)
out = m(chars)
out.pow(2).mean().backward()
report(out=out, g=m.convs[1].weight.grad.abs().sum())
