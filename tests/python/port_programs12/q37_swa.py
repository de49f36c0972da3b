import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn
from torch.utils.data import DataLoader, TensorDataset
model = det(nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 1)))
x = data(24, 4); y = data(24, 1, seed=5)
loader = DataLoader(TensorDataset(x, y), batch_size=8)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
swa_model = AveragedModel(model)
ema_model = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
swa_start = 2
swa_sched = SWALR(opt, swa_lr=0.05, anneal_epochs=2, anneal_strategy="linear")
lrs = []
for epoch in range(5):
    for xb, yb in loader:
        opt.zero_grad(); nn.functional.mse_loss(model(xb), yb).backward(); opt.step()
        ema_model.update_parameters(model)
    if epoch > swa_start:
        swa_model.update_parameters(model); swa_sched.step()
    else:
        sched.step()
    lrs.append(opt.param_groups[0]["lr"])
update_bn(loader, swa_model)
swa_model.eval(); ema_model.eval()
with torch.no_grad():
    out = swa_model(x[:3]); eout = ema_model(x[:3])
report(lrs=lrs, n=swa_model.n_averaged, out=out, eout=eout, rm=swa_model.module[1].running_mean, keys=sorted(swa_model.state_dict().keys())[:3])
