import torch
import torch.nn as nn
from torch.optim.lr_scheduler import ReduceLROnPlateau

p = [nn.Parameter(torch.zeros(2))]
opt = torch.optim.SGD([{"params": p[:1], "lr": 1.0}, {"params": [nn.Parameter(torch.zeros(1))], "lr": 0.1}])
sched = ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1, threshold=0.01, cooldown=1, min_lr=[0.1, 0.02])
metrics = [1.0, 0.9, 0.95, 0.91, 0.92, 0.93, 0.5, 0.6, 0.7, 0.8, 0.9]
lrs = []
for m in metrics:
    opt.step()
    sched.step(m)
    lrs.append([g["lr"] for g in opt.param_groups])
sd = sched.state_dict()
opt2 = torch.optim.SGD([{"params": [nn.Parameter(torch.zeros(2))], "lr": 1.0}, {"params": [nn.Parameter(torch.zeros(1))], "lr": 0.1}])
s2 = ReduceLROnPlateau(opt2, mode="min", factor=0.5, patience=1, threshold=0.01, cooldown=1, min_lr=[0.1, 0.02])
s2.load_state_dict(sd)
mx = ReduceLROnPlateau(torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=1.0), mode="max", patience=0, threshold_mode="abs", threshold=0.1)
ml = []
for m in [0.5, 0.55, 0.7, 0.75]:
    mx.step(m)
    ml.append(mx.optimizer.param_groups[0]["lr"])
report(lrs=lrs, best=sd["best"], bad=sd["num_bad_epochs"], cooldown=sd["cooldown_counter"], last_epoch=sd["last_epoch"],
       s2_best=s2.best, s2_bad=s2.num_bad_epochs, ml=ml, mx_best=mx.best)
