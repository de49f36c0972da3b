import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, get_ema_avg_fn

model = det(nn.Sequential(nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(3, 2)), seed=161)
avg = AveragedModel(model, use_buffers=True)
ema = AveragedModel(model, avg_fn=get_ema_avg_fn(0.8), use_buffers=True)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for step in range(3):
    x = data(4, 2, 5, 5, seed=162 + step)
    opt.zero_grad()
    nn.functional.cross_entropy(model(x), torch.tensor([0, 1, 1, 0])).backward()
    opt.step()
    avg.update_parameters(model)
    ema.update_parameters(model)
report(avg_rm=avg.module[1].running_mean, ema_rm=ema.module[1].running_mean, avg_w=avg.module[5].weight.detach(),
       ema_w=ema.module[5].weight.detach(), n=avg.n_averaged, nbt=avg.module[1].num_batches_tracked, model_rm=model[1].running_mean)
