import torch
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)))
decay, no_decay = [], []
for name, p in model.named_parameters():
    (no_decay if name.endswith("bias") else decay).append(p)
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0, "lr": 3e-3}], lr=1e-2)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1, threshold=1e-3, cooldown=1, min_lr=[1e-4, 1e-5])
x, y = data(16, 4), data(16, 1, seed=3)
val_losses = [1.0, 0.9, 0.95, 0.96, 0.97, 0.89, 0.90, 0.91, 0.92, 0.93]
lrs = []
for ep, vl in enumerate(val_losses):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    sched.step(vl)
    lrs.append([g["lr"] for g in opt.param_groups])
opt.add_param_group({"params": [nn.Parameter(torch.ones(2))], "lr": 0.5})
report(lrs=lrs, ng=len(opt.param_groups), keys=sorted(opt.param_groups[2].keys()), wd=[g["weight_decay"] for g in opt.param_groups],
       best=sched.best, bad=sched.num_bad_epochs, w=model[2].bias)
