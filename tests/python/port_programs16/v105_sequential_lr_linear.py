import torch

p = torch.nn.Parameter(torch.zeros(2))
opt = torch.optim.AdamW([p], lr=1e-3, weight_decay=0.1)
warm = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, end_factor=1.0, total_iters=3)
cos = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=5, eta_min=1e-5)
seq = torch.optim.lr_scheduler.SequentialLR(opt, schedulers=[warm, cos], milestones=[3])
lrs = []
for step in range(10):
    p.grad = torch.ones(2) * (step + 1)
    opt.step()
    seq.step()
    lrs.append(opt.param_groups[0]["lr"])
state = seq.state_dict()
p2 = torch.nn.Parameter(torch.zeros(2))
opt2 = torch.optim.SGD([p2], lr=0.5)
ms = torch.optim.lr_scheduler.MultiStepLR(opt2, milestones=[2, 2, 5], gamma=0.5)
lrs2 = []
for _ in range(7):
    opt2.step()
    ms.step()
    lrs2.append(ms.get_last_lr()[0])
report(lrs=lrs, p=p.detach(), last=seq.get_last_lr(), lrs2=lrs2, keys=sorted(state.keys()))
