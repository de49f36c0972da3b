import torch
import torch.nn as nn
from torch.optim.lr_scheduler import SequentialLR, LinearLR, ExponentialLR, CosineAnnealingLR, ConstantLR

p = [nn.Parameter(torch.zeros(2))]
opt = torch.optim.SGD(p, lr=0.1)
warm = LinearLR(opt, start_factor=0.1, end_factor=1.0, total_iters=3)
decay = ExponentialLR(opt, gamma=0.5)
sched = SequentialLR(opt, schedulers=[warm, decay], milestones=[3])
lrs = []
for _ in range(7):
    lrs.append(opt.param_groups[0]["lr"])
    opt.step()
    sched.step()
opt2 = torch.optim.SGD([nn.Parameter(torch.zeros(2))], lr=1.0)
s2 = SequentialLR(opt2, [ConstantLR(opt2, factor=0.5, total_iters=2), CosineAnnealingLR(opt2, T_max=4)], milestones=[2])
l2 = []
for _ in range(7):
    l2.append(round(opt2.param_groups[0]["lr"], 6))
    opt2.step()
    s2.step()
sd = sched.state_dict()
report(lrs=lrs, l2=l2, last=sched.get_last_lr(), keys=sorted(sd), milestones=sd["_milestones"])
