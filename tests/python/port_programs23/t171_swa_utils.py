import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn

model = det(nn.Sequential(nn.Linear(3, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 1)), seed=1)
loader = [(data(8, 3, seed=10 + i), data(8, 1, seed=20 + i)) for i in range(3)]
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=4)
swa_model = AveragedModel(model)
swa_start = 2
swa_scheduler = SWALR(optimizer, swa_lr=0.02, anneal_epochs=2)
lrs = []
for epoch in range(5):
    for input, target in loader:
        optimizer.zero_grad()
        nn.functional.mse_loss(model(input), target).backward()
        optimizer.step()
    if epoch > swa_start:
        swa_model.update_parameters(model)
        swa_scheduler.step()
    else:
        scheduler.step()
    lrs.append(round(optimizer.param_groups[0]['lr'], 7))
update_bn([x for x, _ in loader], swa_model)
swa_model.eval()
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
ema.update_parameters(model)
with torch.no_grad():
    for p in model.parameters():
        p.add_(1.0)
ema.update_parameters(model)
report(lrs=lrs, n=swa_model.n_averaged, w=swa_model.module[0].bias, rm=swa_model.module[1].running_mean,
       out=swa_model(data(2, 3, seed=5)), ema=ema.module[3].bias, keys=sorted(swa_model.state_dict().keys())[:3])
