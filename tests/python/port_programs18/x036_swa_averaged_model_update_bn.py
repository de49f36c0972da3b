import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn

m = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1)))
swa = AveragedModel(m)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
sched = SWALR(opt, swa_lr=0.05, anneal_epochs=2, anneal_strategy="linear")
X, Y = data(8, 3, seed=1), data(8, 1, seed=2)
loader = [(X[:4], Y[:4]), (X[4:], Y[4:])]
lrs = []
for epoch in range(3):
    for xb, yb in loader:
        opt.zero_grad()
        nn.functional.mse_loss(m(xb), yb).backward()
        opt.step()
    swa.update_parameters(m)
    sched.step()
    lrs.append(round(opt.param_groups[0]["lr"], 6))
update_bn(((xb,) for xb, _ in loader), swa)
report(lrs=lrs, n=swa.n_averaged.item(), w=swa.module[0].weight[1], rm=swa.module[1].running_mean,
       out=swa(X[:2]))
