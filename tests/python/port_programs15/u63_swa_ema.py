import copy
import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn

model = det(nn.Sequential(nn.Linear(3, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 1)))
swa = AveragedModel(model)
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
sched = SWALR(opt, swa_lr=0.01, anneal_epochs=2, anneal_strategy="cos")
X = data(12, 3)
Y = X.sum(1, keepdim=True)
lrs = []
for epoch in range(4):
    for i in range(0, 12, 4):
        opt.zero_grad()
        nn.functional.mse_loss(model(X[i:i + 4]), Y[i:i + 4]).backward()
        opt.step()
        ema.update_parameters(model)
    swa.update_parameters(model)
    sched.step()
    lrs.append(round(opt.param_groups[0]["lr"], 6))
loader = [(X[i:i + 4],) for i in range(0, 12, 4)]
update_bn(loader, swa)


class Manual:
    def __init__(self, m, decay):
        self.shadow = copy.deepcopy(m)
        self.decay = decay

    @torch.no_grad()
    def update(self, m):
        for s, p in zip(self.shadow.parameters(), m.parameters()):
            s.mul_(self.decay).add_(p, alpha=1 - self.decay)


man = Manual(model, 0.5)
man.update(model)
report(lrs=lrs, n_avg=swa.n_averaged, swa_w=swa.module[0].bias, ema_w=ema.module[3].weight, bn_rm=swa.module[1].running_mean,
       man=man.shadow[3].bias, keys=list(swa.state_dict().keys())[:3])
