import copy
import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1)), seed=1)
ema = copy.deepcopy(model)
for p in ema.parameters():
    p.requires_grad_(False)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
swa = torch.optim.swa_utils.AveragedModel(model)
x, y = data(8, 3, seed=2), data(8, 1, seed=3)
for step in range(4):
    opt.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()
    with torch.no_grad():
        for e, p in zip(ema.parameters(), model.parameters()):
            e.mul_(0.9).add_(p.detach(), alpha=0.1)
        for eb, b in zip(ema.buffers(), model.buffers()):
            eb.copy_(b)
    swa.update_parameters(model)
report(ema=ema[2].weight, swa=swa.module[2].weight.detach(), n=swa.n_averaged, rm=ema[1].running_mean)
