import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Linear(4, 2)), seed=1)
decay, no_decay = [], []
for name, p in model.named_parameters():
    (no_decay if p.ndim < 2 or name.endswith(".bias") else decay).append(p)
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}], lr=0.05)
x, y = data(6, 3, seed=2), data(6, 2, seed=3)
for _ in range(3):
    opt.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()
report(nd=len(decay), nn_=len(no_decay), wd=[g["weight_decay"] for g in opt.param_groups], w=model[2].weight.detach(),
       ln=model[1].weight.detach(), state_n=len(opt.state), defaults=sorted(opt.defaults.keys()))
