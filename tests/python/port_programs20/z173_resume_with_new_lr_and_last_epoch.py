import torch
import torch.nn as nn

m = det(nn.Linear(2, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
x = data(4, 2)
for _ in range(3):
    opt.zero_grad()
    m(x).sum().backward()
    opt.step()
    sched.step()
osd = opt.state_dict()
for g in osd["param_groups"]:
    g["lr"] = 0.01
opt2 = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
opt2.load_state_dict(osd)
for g in opt2.param_groups:
    g.setdefault("initial_lr", 0.05)
s2 = torch.optim.lr_scheduler.StepLR(opt2, step_size=2, gamma=0.5, last_epoch=3)
lrs = [opt2.param_groups[0]["lr"]]
for _ in range(3):
    opt2.step()
    s2.step()
    lrs.append(opt2.param_groups[0]["lr"])
try:
    torch.optim.lr_scheduler.StepLR(torch.optim.SGD(m.parameters(), lr=0.1), 2, last_epoch=3)
    err = None
except KeyError as e:
    err = "initial_lr" in str(e)
report(lrs=lrs, err=err, mom=opt2.state_dict()["state"][0]["momentum_buffer"], base=s2.base_lrs)
