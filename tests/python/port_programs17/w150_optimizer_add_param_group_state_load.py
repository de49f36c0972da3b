import torch
import torch.nn as nn

a = det(nn.Linear(2, 2))
b = det(nn.Linear(2, 1), seed=1)
opt = torch.optim.Adam(a.parameters(), lr=0.1)
x = data(3, 2, seed=2)
for i in range(2):
    opt.zero_grad()
    b(a(x)).sum().backward()
    opt.step()
    if i == 0:
        opt.add_param_group({"params": b.parameters(), "lr": 0.01, "betas": (0.5, 0.9)})
sd = opt.state_dict()
opt2 = torch.optim.Adam(list(a.parameters()) + [], lr=0.5)
opt2.add_param_group({"params": list(b.parameters()), "lr": 0.3})
opt2.load_state_dict(sd)
report(groups=[{k: v for k, v in g.items() if k in ("lr", "betas", "params")} for g in sd["param_groups"]], steps=[s["step"] for s in sd["state"].values()],
       lr2=[g["lr"] for g in opt2.param_groups], st=opt2.state[b.weight]["exp_avg"], w=b.weight)
