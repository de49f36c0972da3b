import torch

p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([p], lr=1.0)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=2, threshold=0.01, cooldown=1, min_lr=0.05)
vals = [1.0, 0.9, 0.95, 0.95, 0.95, 0.95, 0.95, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]
lrs = []
for v in vals:
    opt.step()
    sched.step(v)
    lrs.append(opt.param_groups[0]["lr"])
opt2 = torch.optim.SGD([p], lr=0.1)
s2 = torch.optim.lr_scheduler.ReduceLROnPlateau(opt2, mode="max", factor=0.1, patience=0, threshold_mode="abs", threshold=0.1)
l2 = []
for v in [0.5, 0.55, 0.7, 0.75]:
    s2.step(v)
    l2.append(opt2.param_groups[0]["lr"])
sd = sched.state_dict()
report(lrs=lrs, l2=l2, best=sched.best, bad=sched.num_bad_epochs, last=sched.get_last_lr(),
       sd_keys=sorted(k for k in sd.keys() if k not in ("_last_lr",)))
