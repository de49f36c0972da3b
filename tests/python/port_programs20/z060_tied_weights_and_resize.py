import torch
import torch.nn as nn


class LM(nn.Module):
    def __init__(self, v, d):
        super().__init__()
        self.embed = nn.Embedding(v, d)
        self.head = nn.Linear(d, v, bias=False)
        self.head.weight = self.embed.weight

    def forward(self, x):
        return self.head(self.embed(x))


m = det(LM(7, 4))
n_unique = len(list(m.parameters()))
n_total = sum(p.numel() for p in m.parameters())
keys = list(m.state_dict().keys())
x = torch.tensor([[1, 2, 3]])
out = m(x)
out.sum().backward()
g = m.embed.weight.grad.clone()
old = m.embed.weight.data
new = nn.Embedding(9, 4)
new.weight.data[:7] = old
new.weight.data[7:] = old.mean(0, keepdim=True)
m.embed = new
m.head = nn.Linear(4, 9, bias=False)
m.head.weight = m.embed.weight
report(n_unique=n_unique, n_total=n_total, keys=keys, g=g, tied=m.head.weight is m.embed.weight, out=m(x).shape,
       row7=m.embed.weight[7], sd_keys=list(m.state_dict().keys()))
