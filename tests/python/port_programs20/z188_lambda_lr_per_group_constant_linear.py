import torch
from torch.optim.lr_scheduler import LambdaLR, ConstantLR, LinearLR

p1, p2 = torch.nn.Parameter(torch.zeros(1)), torch.nn.Parameter(torch.zeros(1))
o = torch.optim.SGD([{"params": [p1]}, {"params": [p2], "lr": 1.0}], lr=0.1)
s = LambdaLR(o, lr_lambda=[lambda e: 0.5 ** e, lambda e: 1.0 / (e + 1)])
a = []
for _ in range(4):
    o.step()
    s.step()
    a.append(s.get_last_lr())
o2 = torch.optim.SGD([p1], lr=1.0)
c = ConstantLR(o2, factor=0.25, total_iters=2)
b = []
for _ in range(4):
    b.append(o2.param_groups[0]["lr"])
    o2.step()
    c.step()
o3 = torch.optim.SGD([p1], lr=1.0)
l = LinearLR(o3, start_factor=1.0, end_factor=0.1, total_iters=3)
d = []
for _ in range(5):
    d.append(round(o3.param_groups[0]["lr"], 6))
    o3.step()
    l.step()
report(a=a, b=b, d=d)
