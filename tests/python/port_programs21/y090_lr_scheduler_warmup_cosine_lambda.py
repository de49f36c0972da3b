import math
import torch
import torch.nn as nn

m = nn.Linear(2, 2)
opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
warmup, total = 3, 10


def lr_lambda(step):
    if step < warmup:
        return float(step + 1) / float(warmup)
    progress = (step - warmup) / max(1, total - warmup)
    return 0.5 * (1.0 + math.cos(math.pi * progress))


sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda)
lrs = []
for step in range(total):
    opt.step()
    sched.step()
    lrs.append(sched.get_last_lr()[0])
opt2 = torch.optim.SGD(m.parameters(), lr=0.1)
s1 = torch.optim.lr_scheduler.LinearLR(opt2, start_factor=0.1, total_iters=2)
s2 = torch.optim.lr_scheduler.CosineAnnealingLR(opt2, T_max=4)
seq = torch.optim.lr_scheduler.SequentialLR(opt2, [s1, s2], milestones=[2])
l2 = []
for _ in range(6):
    opt2.step()
    seq.step()
    l2.append(opt2.param_groups[0]["lr"])
report(lrs=lrs, l2=l2, init=opt.param_groups[0]["initial_lr"])
