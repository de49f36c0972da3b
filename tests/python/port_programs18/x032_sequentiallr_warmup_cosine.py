import torch

p = torch.nn.Parameter(torch.zeros(2))
opt = torch.optim.AdamW([p], lr=1e-3)
warm = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, end_factor=1.0, total_iters=3)
cos = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=5, eta_min=1e-5)
sched = torch.optim.lr_scheduler.SequentialLR(opt, schedulers=[warm, cos], milestones=[3])
lrs = []
for epoch in range(9):
    opt.step()
    sched.step()
    lrs.append(round(opt.param_groups[0]["lr"], 9))
report(lrs=lrs, last=sched.get_last_lr(), sd_keys=sorted(sched.state_dict().keys()))
