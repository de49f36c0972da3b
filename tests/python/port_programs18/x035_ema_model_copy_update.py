import copy
import torch
import torch.nn as nn


class EMA:
    def __init__(self, model, decay=0.9):
        self.ema = copy.deepcopy(model).eval()
        self.decay = decay
        for p in self.ema.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        msd = model.state_dict()
        for k, v in self.ema.state_dict().items():
            if v.dtype.is_floating_point:
                v.mul_(self.decay).add_(msd[k].detach(), alpha=1 - self.decay)
            else:
                v.copy_(msd[k])


m = det(nn.Sequential(nn.Linear(3, 4, bias=False), nn.BatchNorm1d(4), nn.Linear(4, 1)))
ema = EMA(m)
opt = torch.optim.Adam(m.parameters(), lr=0.05)
x, y = data(6, 3, seed=1), data(6, 1, seed=2)
for _ in range(4):
    loss = nn.functional.mse_loss(m(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema.update(m)
report(ema_w=ema.ema[0].weight[0], ema_rm=ema.ema[1].running_mean, nbt=ema.ema[1].num_batches_tracked.item(),
       ema_out=ema.ema(x)[:3], req=any(p.requires_grad for p in ema.ema.parameters()))
