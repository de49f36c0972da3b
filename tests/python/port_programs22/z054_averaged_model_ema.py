import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

model = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1)), seed=67)
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
ema_fn = AveragedModel(model, avg_fn=lambda avg, cur, n: 0.8 * avg + 0.2 * cur, use_buffers=True)
swa = AveragedModel(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = data(8, 3, seed=68), data(8, 1, seed=69)
for step in range(4):
    opt.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()
    ema.update_parameters(model)
    ema_fn.update_parameters(model)
    swa.update_parameters(model)
report(ema=ema.module[2].weight.detach(), ema_fn=ema_fn.module[2].weight.detach(), swa=swa.module[2].weight.detach(),
       n=ema.n_averaged, n_fn=ema_fn.n_averaged, rm_fn=ema_fn.module[1].running_mean, rm_swa=swa.module[1].running_mean,
       out=swa(x[:2]).detach(), keys=sorted(swa.state_dict().keys())[:4])
