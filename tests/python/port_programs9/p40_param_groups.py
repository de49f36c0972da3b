import torch
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)))
opt = torch.optim.SGD([{"params": model[0].parameters()}, {"params": model[2].parameters(), "lr": 1e-3, "momentum": 0.5}], lr=1e-2, momentum=0.9)
sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[1, 2], gamma=0.5)
x = data(5, 4); y = data(5, 2, seed=4)
lrs = []
for _ in range(3):
    opt.zero_grad(); nn.functional.mse_loss(model(x), y).backward(); opt.step(); sched.step()
    lrs.append([g["lr"] for g in opt.param_groups])
sd = opt.state_dict()
extra = nn.Linear(2, 2); det(extra, 5)
opt.add_param_group({"params": extra.parameters(), "lr": 0.2})
for g in opt.param_groups:
    g["lr"] *= 10
a2 = torch.optim.Adam(model.parameters(), lr=0.1)
a2.zero_grad(); nn.functional.mse_loss(model(x), y).backward(); a2.step()
st = a2.state[model[0].weight]
report(lrs=lrs, ngroups=len(opt.param_groups), lr_after=[g["lr"] for g in opt.param_groups], keys=sorted(sd.keys()), pids=[g["params"] for g in sd["param_groups"]],
       mom=[g["momentum"] for g in opt.param_groups], buf=sd["state"][0]["momentum_buffer"], st_keys=sorted(st.keys()), ea=st["exp_avg"][0], step=st["step"],
       w=model[2].weight, defaults=sorted(k for k in ("lr", "momentum", "dampening", "weight_decay", "nesterov") if k in opt.defaults))
