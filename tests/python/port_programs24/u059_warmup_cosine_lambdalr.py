import math
import torch
import torch.nn as nn


def warmup_cosine(warmup, total, min_ratio=0.1):
    def f(step):
        if step < warmup:
            return float(step + 1) / float(max(1, warmup))
        progress = (step - warmup) / max(1, total - warmup)
        return min_ratio + (1 - min_ratio) * 0.5 * (1.0 + math.cos(math.pi * progress))
    return f


model = det(nn.Linear(3, 2))
decay, no_decay = [], []
for n, p in model.named_parameters():
    (no_decay if n.endswith("bias") else decay).append(p)
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}], lr=0.01)
sched = torch.optim.lr_scheduler.LambdaLR(opt, [warmup_cosine(3, 12), lambda s: 0.5 ** (s // 4)])
lrs = []
x = data(5, 3)
for step in range(12):
    loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    lrs.append([round(g["lr"], 8) for g in opt.param_groups])
sd = sched.state_dict()
report(lrs=lrs, last_epoch=sd["last_epoch"], base_lrs=sd["base_lrs"], w=model.weight, b=model.bias,
       initial=[g["initial_lr"] for g in opt.param_groups])
