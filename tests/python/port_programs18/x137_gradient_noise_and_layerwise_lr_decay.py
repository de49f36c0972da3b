import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 3), nn.Linear(3, 1)))
groups = []
n = len(m)
for i, layer in enumerate(m):
    groups.append({"params": layer.parameters(), "lr": 0.1 * (0.5 ** (n - 1 - i)), "name": f"layer{i}"})
opt = torch.optim.SGD(groups, lr=0.1)
x = data(4, 3, seed=1)
m(x).sum().backward()
opt.step()
report(lrs=[g["lr"] for g in opt.param_groups], names=[g["name"] for g in opt.param_groups], w0=m[0].weight[0],
       sd=[sorted(g.keys()) for g in opt.state_dict()["param_groups"]][0])
