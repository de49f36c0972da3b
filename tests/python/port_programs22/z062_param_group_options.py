import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Linear(4, 2)), seed=79)
decay, no_decay = [], []
for n, p in model.named_parameters():
    (no_decay if p.ndim < 2 or "bias" in n else decay).append(p)
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0, "lr": 5e-3}],
                        lr=1e-2, betas=(0.9, 0.95), eps=1e-6)
extra = nn.Parameter(torch.ones(2))
opt.add_param_group({"params": [extra], "lr": 0.1, "betas": (0.5, 0.6)})
x = data(6, 3, seed=80)
for _ in range(3):
    opt.zero_grad()
    (model(x).pow(2).mean() + extra.pow(2).sum()).backward()
    opt.step()
groups = [{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups]
report(wd=[g["weight_decay"] for g in groups], lr=[g["lr"] for g in groups], betas=[list(g["betas"]) for g in groups],
       eps=[g["eps"] for g in groups], amsgrad=groups[2]["amsgrad"], extra=extra, w=model[2].weight, defaults_lr=opt.defaults["lr"],
       nparams=[len(g["params"]) for g in opt.param_groups], step=opt.state[extra]["step"])
