import math
import torch
import torch.nn as nn
model = nn.Linear(2, 1)
opt = torch.optim.AdamW([{"params": [model.weight], "lr": 1e-3}, {"params": [model.bias], "lr": 2e-3}], weight_decay=0.01)
warm, total = 3, 10
def lr_lambda(step):
    if step < warm:
        return float(step + 1) / warm
    progress = (step - warm) / max(1, total - warm)
    return 0.5 * (1.0 + math.cos(math.pi * progress))
sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda)
lrs = []
for step in range(total):
    opt.step(); sched.step()
    lrs.append([round(g["lr"], 8) for g in opt.param_groups])
warmup = torch.optim.lr_scheduler.LinearLR(torch.optim.SGD([nn.Parameter(torch.ones(1))], lr=0.1), start_factor=0.01, end_factor=1.0, total_iters=4)
wl = []
for _ in range(5):
    warmup.optimizer.step(); warmup.step(); wl.append(round(warmup.get_last_lr()[0], 8))
report(lrs=lrs, wl=wl, base=sched.base_lrs)
