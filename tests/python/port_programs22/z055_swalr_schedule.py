import torch
import torch.nn as nn
from torch.optim.swa_utils import SWALR, AveragedModel

model = det(nn.Linear(3, 1), seed=70)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
swa_sched = SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy="cos")
swa_model = AveragedModel(model)
lrs = []
x, y = data(6, 3, seed=71), data(6, 1, seed=72)
for epoch in range(8):
    opt.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()
    if epoch >= 3:
        swa_model.update_parameters(model)
        swa_sched.step()
    else:
        sched.step()
    lrs.append(opt.param_groups[0]["lr"])
opt2 = torch.optim.SGD(model.parameters(), lr=0.5)
lin = SWALR(opt2, swa_lr=0.1, anneal_epochs=4, anneal_strategy="linear")
lin_lrs = []
for _ in range(6):
    opt2.step()
    lin.step()
    lin_lrs.append(lin.get_last_lr()[0])
report(lrs=lrs, lin=lin_lrs, w=swa_model.module.weight.detach(), n=swa_model.n_averaged)
