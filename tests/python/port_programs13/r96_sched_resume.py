import torch
import torch.nn as nn
p = nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([p], lr=0.1)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
for _ in range(4):
    opt.step(); sched.step()
sd_o, sd_s = opt.state_dict(), sched.state_dict()
p2 = nn.Parameter(torch.ones(2))
opt2 = torch.optim.SGD([p2], lr=0.1)
opt2.load_state_dict(sd_o)
sched2 = torch.optim.lr_scheduler.CosineAnnealingLR(opt2, T_max=10, last_epoch=-1)
sched2.load_state_dict(sd_s)
lr_a, lr_b = [], []
for _ in range(3):
    opt.step(); sched.step(); lr_a.append(sched.get_last_lr()[0])
    opt2.step(); sched2.step(); lr_b.append(sched2.get_last_lr()[0])
opt3 = torch.optim.SGD([nn.Parameter(torch.ones(1))], lr=0.1)
for g in opt3.param_groups:
    g["initial_lr"] = 0.1
s3 = torch.optim.lr_scheduler.StepLR(opt3, step_size=2, gamma=0.5, last_epoch=5)
report(lr_a=lr_a, lr_b=lr_b, keys=sorted(sd_s.keys()), initial=opt2.param_groups[0]["initial_lr"], last_epoch=sched2.last_epoch, s3=s3.get_last_lr(), s3lr=opt3.param_groups[0]["lr"])
