import torch
from torch.optim.lr_scheduler import SequentialLR, ChainedScheduler, LinearLR, ExponentialLR, ConstantLR, CosineAnnealingLR

p = torch.nn.Parameter(torch.zeros(1))
o = torch.optim.SGD([p], lr=0.1)
s = SequentialLR(o, schedulers=[LinearLR(o, start_factor=0.1, total_iters=3), CosineAnnealingLR(o, T_max=5)], milestones=[3])
a = []
for _ in range(9):
    a.append(round(o.param_groups[0]["lr"], 8))
    o.step()
    s.step()
o2 = torch.optim.SGD([p], lr=1.0)
c = ChainedScheduler([ConstantLR(o2, factor=0.5, total_iters=2), ExponentialLR(o2, gamma=0.9)])
b = []
for _ in range(5):
    b.append(round(o2.param_groups[0]["lr"], 8))
    o2.step()
    c.step()
report(a=a, b=b, last=s.get_last_lr(), clast=c.get_last_lr())
