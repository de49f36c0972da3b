import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn

model = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1)))
swa = AveragedModel(model)
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = SWALR(opt, swa_lr=0.05, anneal_epochs=2, anneal_strategy="linear")
X = data(12, 3)
loader = [(X[i:i + 4],) for i in range(0, 12, 4)]
lrs = []
for epoch in range(3):
    for (xb,) in loader:
        opt.zero_grad()
        model(xb).pow(2).mean().backward()
        opt.step()
    swa.update_parameters(model)
    ema.update_parameters(model)
    sched.step()
    lrs.append(opt.param_groups[0]["lr"])
update_bn([xb for (xb,) in loader], swa)
report(lrs=lrs, n=swa.n_averaged, w=swa.module[0].weight, ew=ema.module[0].weight, rm=swa.module[1].running_mean,
       keys=sorted(swa.state_dict().keys())[:3])
