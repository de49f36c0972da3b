import torch
import torch.nn as nn
import torch.nn.functional as F
class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(6, 6)
        self.register_buffer("mask", torch.ones(6, dtype=torch.bool))
    def forward(self, x, lengths=None):
        h = self.proj(x)
        h.masked_fill_(~self.mask, 0.0)
        if lengths is not None:
            m = torch.arange(x.size(1))[None, :] >= lengths[:, None]
            h = h.masked_fill(m[..., None], float("-inf"))
        w = F.softmax(h, dim=1)
        w = torch.nan_to_num(w)
        pooled = (w * x).sum(1)
        h2 = x.clone()
        h2[:, 0] = h2[:, 0] * 2
        h2.clamp_(max=1.0).mul_(0.5)
        return pooled, h2
g = det(Gate())
g.mask[2] = False
x = data(2, 4, 6, scale=0.5)
pooled, h2 = g(x, lengths=torch.tensor([2, 4]))
(pooled.sum() + h2.sum()).backward()
xs = data(3, 5).requires_grad_()
clipped = []
xs.register_hook(lambda gr: gr.clamp(-0.1, 0.1))
(xs ** 3).sum().backward()
y = torch.zeros(3, 5)
y[torch.arange(3), torch.tensor([0, 2, 4])] = 1.0
z = torch.zeros(4); z[1:3] += torch.tensor([1.0, 2.0]); z[-1] -= 5
report(pooled=pooled, h2=h2[0], g=g.proj.weight.grad[0], xg=xs.grad, y=y, z=z, tk=torch.topk(torch.tensor([3.0, 1.0, 2.0, 5.0]), 2, sorted=True).values)
