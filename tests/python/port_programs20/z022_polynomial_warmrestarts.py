import torch
from torch.optim.lr_scheduler import PolynomialLR, CosineAnnealingWarmRestarts, MultiplicativeLR, CyclicLR, OneCycleLR

p = torch.nn.Parameter(torch.zeros(1))
o = torch.optim.SGD([p], lr=0.5)
s = PolynomialLR(o, total_iters=4, power=2.0)
a = []
for _ in range(6):
    a.append(o.param_groups[0]["lr"])
    o.step()
    s.step()
o2 = torch.optim.SGD([p], lr=1.0)
w = CosineAnnealingWarmRestarts(o2, T_0=3, T_mult=2, eta_min=0.1)
b = []
for _ in range(10):
    b.append(o2.param_groups[0]["lr"])
    o2.step()
    w.step()
o3 = torch.optim.SGD([p], lr=1.0)
w3 = CosineAnnealingWarmRestarts(o3, T_0=4)
c = []
for epoch in range(2):
    for i in range(4):
        w3.step(epoch + i / 4)
        c.append(o3.param_groups[0]["lr"])
o4 = torch.optim.SGD([p], lr=1.0)
m = MultiplicativeLR(o4, lr_lambda=lambda e: 0.9)
d = []
for _ in range(3):
    o4.step()
    m.step()
    d.append(o4.param_groups[0]["lr"])
o5 = torch.optim.SGD([p], lr=0.1, momentum=0.9)
cy = CyclicLR(o5, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2")
e = []
for _ in range(9):
    o5.step()
    cy.step()
    e.append(o5.param_groups[0]["lr"])
report(a=a, b=b, c=c, d=d, e=e, Ti=w.T_i, Tcur=w.T_cur)
