import torch
import torch.nn as nn


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(4, 2, bias=False)
        self.dec = nn.Linear(2, 4, bias=False)
        self.shared_bias = nn.Parameter(torch.zeros(2))
        self.alias = self.enc

    def forward(self, x):
        h = torch.relu(self.enc(x) + self.shared_bias)
        return h @ self.enc.weight


m = det(Tied())
x = data(3, 4)
loss = ((m(x) - x) ** 2).mean()
loss.backward()
g = m.enc.weight.grad.clone()
m.zero_grad(set_to_none=False)
zeros = m.enc.weight.grad
m.zero_grad()
none = m.enc.weight.grad is None
cnt = {"params": len(list(m.parameters())), "named": [n for n, _ in m.named_parameters()], "named_dup": [n for n, _ in m.named_parameters(remove_duplicate=False)]}
applied = []
m.apply(lambda mod: applied.append(type(mod).__name__))
req = m.requires_grad_(False)
report(loss=loss.item(), g=g, zeros=zeros, none=none, cnt=cnt, applied=applied, req=[p.requires_grad for p in m.parameters()], same=req is m)
