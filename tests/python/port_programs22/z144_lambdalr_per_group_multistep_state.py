import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LambdaLR, MultiStepLR

a, b = nn.Parameter(torch.zeros(1)), nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([{"params": [a], "lr": 1.0}, {"params": [b], "lr": 0.5}])
s = LambdaLR(opt, [lambda e: 0.9 ** e, lambda e: 1.0 / (e + 1)])
hist = []
for _ in range(4):
    opt.step()
    s.step()
    hist.append(s.get_last_lr())
sd = s.state_dict()
opt2 = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=1.0)
m = MultiStepLR(opt2, milestones=[2, 2, 4], gamma=0.5)
ml = []
for _ in range(5):
    opt2.step()
    m.step()
    ml.append(opt2.param_groups[0]["lr"])
msd = m.state_dict()
report(hist=hist, lambdas=sd["lr_lambdas"], keys=sorted(sd), ml=ml, milestones=sorted(msd["milestones"].items()), mkeys=sorted(msd))
