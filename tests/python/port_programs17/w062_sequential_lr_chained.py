import torch

p = [torch.nn.Parameter(torch.zeros(2))]
opt = torch.optim.SGD(p, lr=1.0, momentum=0.9)
warm = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, end_factor=1.0, total_iters=3)
cos = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=5, eta_min=0.01)
seq = torch.optim.lr_scheduler.SequentialLR(opt, schedulers=[warm, cos], milestones=[3])
lrs = []
for _ in range(9):
    opt.step()
    seq.step()
    lrs.append(round(opt.param_groups[0]["lr"], 6))
opt2 = torch.optim.SGD(p, lr=1.0)
s1 = torch.optim.lr_scheduler.ExponentialLR(opt2, gamma=0.9)
s2 = torch.optim.lr_scheduler.MultiStepLR(opt2, milestones=[2, 4], gamma=0.5)
ch = torch.optim.lr_scheduler.ChainedScheduler([s1, s2])
lrs2 = []
for _ in range(6):
    opt2.step()
    ch.step()
    lrs2.append(round(opt2.param_groups[0]["lr"], 6))
report(lrs=lrs, lrs2=lrs2, last=seq.get_last_lr(), sd=sorted(seq.state_dict().keys()))
