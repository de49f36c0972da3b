import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn

model = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1)))
swa = AveragedModel(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
swa_sched = SWALR(opt, swa_lr=0.05, anneal_epochs=2, anneal_strategy="linear")
x, y = data(12, 3), data(12, 1, seed=4)
lrs = []
for epoch in range(4):
    for xb, yb in zip(x.split(4), y.split(4)):
        loss = nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad(); loss.backward(); opt.step()
    if epoch >= 1:
        swa.update_parameters(model)
        swa_sched.step()
    lrs.append(opt.param_groups[0]["lr"])
loader = [(xb,) for xb in x.split(4)]
update_bn([b[0] for b in loader], swa)
swa.eval()
report(lrs=lrs, n_avg=swa.n_averaged, rm=swa.module[1].running_mean, rv=swa.module[1].running_var, w=swa.module[0].weight[0], out=swa(x[:2]))
