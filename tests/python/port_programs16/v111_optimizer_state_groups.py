import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)))
opt = torch.optim.SGD([{"params": m[0].parameters(), "lr": 0.05, "momentum": 0.9},
                       {"params": m[2].parameters(), "weight_decay": 0.1}], lr=0.1)
x, y = data(5, 3), data(5, 1, seed=2)
for _ in range(2):
    loss = ((m(x) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
sd = opt.state_dict()
groups = [{k: v for k, v in g.items() if k != "params"} for g in sd["param_groups"]]
params_ids = [g["params"] for g in sd["param_groups"]]
for g in opt.param_groups:
    g["lr"] *= 0.5
extra = nn.Parameter(torch.ones(2))
opt.add_param_group({"params": [extra], "lr": 1.0, "momentum": 0.0})
extra.grad = torch.ones(2)
opt.step()
report(groups=[sorted(g.keys()) for g in groups], wd=[g["weight_decay"] for g in groups], mom=[g["momentum"] for g in groups],
       ids=params_ids, state_keys=sorted(sd["state"].keys()), buf=sd["state"][0]["momentum_buffer"][0], extra=extra.detach(),
       lrs=[g["lr"] for g in opt.param_groups], n_groups=len(opt.param_groups), w=m[2].weight.detach())
