import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn

m = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1)))
swa = AveragedModel(m)
ema = AveragedModel(m, multi_avg_fn=get_ema_multi_avg_fn(0.8))
opt = torch.optim.SGD(m.parameters(), lr=0.2)
sw = SWALR(opt, swa_lr=0.05, anneal_epochs=2, anneal_strategy="linear")
x, y = data(12, 3, seed=1), data(12, 1, seed=2)
lrs = []
for ep in range(4):
    loss = nn.functional.mse_loss(m(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    swa.update_parameters(m)
    ema.update_parameters(m)
    sw.step()
    lrs.append(opt.param_groups[0]["lr"])
loader = [(x[:6],), (x[6:],)]
update_bn(loader, swa)
report(lrs=lrs, n=swa.n_averaged, w=swa.module[0].weight, e=ema.module[3].weight, rm=swa.module[1].running_mean,
       keys=sorted(swa.state_dict().keys())[:3])
