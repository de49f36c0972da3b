import torch

p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.Adam([{"params": [p], "lr": 0.1}, {"params": [torch.nn.Parameter(torch.ones(1))], "lr": 0.01}])
sch = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1, threshold=0.01, threshold_mode="rel", cooldown=1, min_lr=[0.02, 0.001])
vals = [1.0, 0.995, 0.99, 0.98, 0.98, 0.98, 0.98, 0.5, 0.5, 0.5, 0.5, 0.5]
hist = []
for v in vals:
    opt.step()
    sch.step(v)
    hist.append([g["lr"] for g in opt.param_groups])
sch2 = torch.optim.lr_scheduler.ReduceLROnPlateau(torch.optim.SGD([p], lr=1.0), mode="max", patience=0, threshold=0.1, threshold_mode="abs")
h2 = []
for v in [0.5, 0.55, 0.7, 0.75, 0.9]:
    sch2.step(v)
    h2.append(sch2.optimizer.param_groups[0]["lr"])
report(hist=hist, h2=h2, best=sch.best, bad=sch.num_bad_epochs, last=sch.get_last_lr() if hasattr(sch, "get_last_lr") else None)
