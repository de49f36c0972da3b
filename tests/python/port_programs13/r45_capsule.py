import torch
import torch.nn as nn
import torch.nn.functional as F
def squash(s, dim=-1):
    n2 = (s ** 2).sum(dim=dim, keepdim=True)
    return n2 / (1 + n2) * s / torch.sqrt(n2 + 1e-8)
class Routing(nn.Module):
    def __init__(self, in_caps=6, in_dim=4, out_caps=3, out_dim=5, iters=3):
        super().__init__()
        self.W = nn.Parameter(0.1 * torch.randn(1, in_caps, out_caps, out_dim, in_dim))
        self.iters = iters
    def forward(self, u):
        b = u.size(0)
        u_hat = (self.W @ u[:, :, None, :, None]).squeeze(-1)
        logits = torch.zeros(b, u.size(1), self.W.size(2))
        for i in range(self.iters):
            c = F.softmax(logits, dim=2)
            s = (c.unsqueeze(-1) * u_hat).sum(dim=1)
            v = squash(s)
            if i < self.iters - 1:
                logits = logits + (u_hat * v.unsqueeze(1)).sum(-1)
        return v
def margin_loss(v, y, m_pos=0.9, m_neg=0.1, lam=0.5):
    L = v.norm(dim=-1)
    T = F.one_hot(y, L.size(1)).float()
    return (T * F.relu(m_pos - L) ** 2 + lam * (1 - T) * F.relu(L - m_neg) ** 2).sum(1).mean()
caps = det(Routing())
u = squash(data(4, 6, 4))
v = caps(u)
loss = margin_loss(v, ints(3, 4))
loss.backward()
report(v=v[0], lens=v.norm(dim=-1), loss=loss, g=caps.W.grad.abs().sum())
