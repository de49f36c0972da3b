import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Embedding(10, 4), nn.Flatten(), nn.Linear(8, 2)))
groups = [{"params": model[0].parameters(), "lr": 1e-2, "weight_decay": 0.0}, {"params": model[2].parameters()}]
opt = torch.optim.AdamW(groups, lr=5e-3, weight_decay=0.05, betas=(0.9, 0.98), eps=1e-6)
warm, total = 3, 10
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min((s + 1) / warm, max(0.0, (total - s) / (total - warm))))
idx, y = ints(10, 6, 2, seed=3), ints(2, 6, seed=4)
lrs, losses = [], []
for step in range(total):
    loss = nn.functional.cross_entropy(model(idx), y)
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    lrs.append([round(g["lr"], 9) for g in opt.param_groups]); losses.append(round(loss.item(), 6))
report(lrs=lrs, losses=losses, wd=[g["weight_decay"] for g in opt.param_groups], emb=model[0].weight[0])
