import torch
import torch.nn as nn

body, head = det(nn.Linear(3, 3)), det(nn.Linear(3, 1), seed=2)
opt = torch.optim.Adam(head.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
x, y = data(4, 3, seed=1), data(4, 1, seed=3)
lrs = []
for ep in range(4):
    if ep == 2:
        opt.add_param_group({"params": body.parameters(), "lr": 0.001})
    loss = nn.functional.mse_loss(head(torch.relu(body(x))), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    lrs.append([round(g["lr"], 7) for g in opt.param_groups])
report(lrs=lrs, n_groups=len(opt.param_groups), bw=body.weight[0], initial=[g.get("initial_lr") for g in opt.param_groups])
