import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn, update_bn, SWALR
model = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1)))
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
swa_sched = SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy="linear")
x, y = data(16, 3), data(16, 1, seed=3)
lrs = []
for i in range(4):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    ema.update_parameters(model)
    swa_sched.step(); lrs.append(opt.param_groups[0]["lr"])
loader = [(x[:8],), (x[8:],)]
update_bn(loader, ema)
report(w=ema.module[0].weight[0], n=ema.n_averaged, lrs=lrs, rm=ema.module[1].running_mean, keys=list(ema.state_dict().keys())[:3])
