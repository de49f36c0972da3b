import torch
import torch.nn as nn
class MTL(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(5, 8), nn.ReLU())
        self.reg = nn.Linear(8, 1)
        self.cls = nn.Linear(8, 3)
        self.log_vars = nn.Parameter(torch.zeros(2))
    def forward(self, x):
        h = self.trunk(x)
        return self.reg(h).squeeze(-1), self.cls(h)
m = det(MTL())
x, yr, yc = data(10, 5), data(10, seed=3), ints(3, 10)
opt = torch.optim.Adam(m.parameters(), lr=0.05)
hist = []
for _ in range(4):
    r, c = m(x)
    l1 = nn.functional.mse_loss(r, yr)
    l2 = nn.functional.cross_entropy(c, yc)
    prec = torch.exp(-m.log_vars)
    loss = prec[0] * l1 + m.log_vars[0] + prec[1] * l2 + m.log_vars[1]
    opt.zero_grad(); loss.backward(); opt.step()
    hist.append([loss.item(), *m.log_vars.tolist()])
shared = [torch.autograd.grad(l, m.trunk[0].weight, retain_graph=True)[0].norm() for l in (nn.functional.mse_loss(m(x)[0], yr), nn.functional.cross_entropy(m(x)[1], yc))]
report(hist=hist, shared=shared)
