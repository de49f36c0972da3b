import torch
from torch.optim.lr_scheduler import CosineAnnealingLR, StepLR, ExponentialLR

p = torch.nn.Parameter(torch.zeros(1))
o = torch.optim.SGD([p], lr=1.0)
s = CosineAnnealingLR(o, T_max=6, eta_min=0.01)
for _ in range(3):
    o.step()
    s.step()
sd_o, sd_s = o.state_dict(), s.state_dict()
o2 = torch.optim.SGD([p], lr=1.0)
s2 = CosineAnnealingLR(o2, T_max=6, eta_min=0.01)
o2.load_state_dict(sd_o)
s2.load_state_dict(sd_s)
a, b = [], []
for _ in range(3):
    o.step(); s.step(); a.append(s.get_last_lr()[0])
    o2.step(); s2.step(); b.append(s2.get_last_lr()[0])
o3 = torch.optim.SGD([{"params": [p], "lr": 0.1}, {"params": [torch.nn.Parameter(torch.ones(1))], "lr": 1.0}])
s3 = StepLR(o3, 1, gamma=0.5)
o3.step(); s3.step()
report(a=a, b=b, sd=sd_s["last_epoch"], T=sd_s["T_max"], multi=s3.get_last_lr(), base=s3.base_lrs)
