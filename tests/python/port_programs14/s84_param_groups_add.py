import torch
import torch.nn as nn

base = det(nn.Linear(3, 3))
cls = det(nn.Linear(3, 2), 1)
opt = torch.optim.SGD([{"params": base.parameters(), "lr": 0.01}, {"params": cls.weight, "lr": 0.1, "momentum": 0.5}], lr=0.05, momentum=0.9,
                      weight_decay=1e-3)
extra = nn.Linear(2, 1)
det(extra, 2)
opt.add_param_group({"params": list(extra.parameters()), "lr": 0.2, "weight_decay": 0.0})
opt.add_param_group({"params": [cls.bias]})
x = data(4, 3)
for _ in range(2):
    loss = extra(cls(base(x))).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
for g in opt.param_groups:
    g["lr"] *= 0.5
sd = opt.state_dict()
report(lrs=[g["lr"] for g in opt.param_groups], moms=[g["momentum"] for g in opt.param_groups], wds=[g["weight_decay"] for g in opt.param_groups],
       params=[g["params"] for g in sd["param_groups"]], w=extra.weight, b=cls.bias, nstate=len(sd["state"]))
