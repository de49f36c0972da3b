import torch

p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([p, ], lr=1.0)
s = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="max", factor=0.5, patience=1, threshold=0.01,
                                               threshold_mode="abs", cooldown=1, min_lr=0.1)
accs = [0.5, 0.6, 0.6, 0.605, 0.6, 0.59, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7]
lrs = []
for a in accs:
    opt.step()
    s.step(a)
    lrs.append(opt.param_groups[0]["lr"])
report(lrs=lrs, best=s.best, bad=s.num_bad_epochs, last=s.get_last_lr())
