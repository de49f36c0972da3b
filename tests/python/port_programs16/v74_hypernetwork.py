import torch
import torch.nn as nn
import torch.nn.functional as F


class HyperLinear(nn.Module):
    def __init__(self, z_dim, din, dout):
        super().__init__()
        self.din, self.dout = din, dout
        self.w_gen = nn.Linear(z_dim, din * dout)
        self.b_gen = nn.Linear(z_dim, dout)

    def forward(self, x, z):
        W = self.w_gen(z).view(-1, self.dout, self.din)
        b = self.b_gen(z)
        return torch.baddbmm(b.unsqueeze(1), x, W.transpose(1, 2))


tasks = nn.Embedding(3, 4)
hyper = HyperLinear(4, 5, 2)
det(tasks)
det(hyper, seed=1, scale=0.1)
x = data(3, 7, 5)
tid = torch.tensor([0, 2, 1])
target = data(3, 7, 2, seed=6)
opt = torch.optim.Adam([*tasks.parameters(), *hyper.parameters()], lr=1e-2)
for _ in range(4):
    out = hyper(x, tasks(tid))
    loss = F.mse_loss(out, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
W0 = hyper.w_gen(tasks.weight[0]).view(2, 5)
same = torch.allclose(hyper(x[:1], tasks(tid[:1])), F.linear(x[0], W0, hyper.b_gen(tasks.weight[0])), atol=1e-5)
report(loss=loss.item(), same=same, out=out[2, 0].detach())
