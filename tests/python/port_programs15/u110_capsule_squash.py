import torch
import torch.nn as nn
import torch.nn.functional as F


def squash(s, dim=-1):
    n2 = (s ** 2).sum(dim=dim, keepdim=True)
    return n2 / (1 + n2) * s / torch.sqrt(n2 + 1e-8)


class Routing(nn.Module):
    def __init__(self, in_caps, in_dim, out_caps, out_dim, iters=3):
        super().__init__()
        self.W = nn.Parameter(torch.zeros(1, in_caps, out_caps, out_dim, in_dim))
        self.iters = iters

    def forward(self, u):
        u_hat = (self.W @ u[:, :, None, :, None]).squeeze(-1)
        b = torch.zeros(u.size(0), u.size(1), self.W.size(2))
        for i in range(self.iters):
            c = F.softmax(b, dim=2)
            v = squash((c.unsqueeze(-1) * u_hat).sum(dim=1))
            if i < self.iters - 1:
                b = b + (u_hat * v.unsqueeze(1)).sum(-1)
        return v


caps = det(Routing(6, 4, 3, 5), scale=0.5)
u = squash(data(2, 6, 4))
v = caps(u)
lengths = v.norm(dim=-1)
y = F.one_hot(torch.tensor([0, 2]), 3).float()
margin = (y * F.relu(0.9 - lengths) ** 2 + 0.5 * (1 - y) * F.relu(lengths - 0.1) ** 2).sum(1).mean()
margin.backward()
report(v=v[0, 0], lengths=lengths, margin=margin, gW=caps.W.grad.abs().sum(), u_norm=u.norm(dim=-1)[0])
