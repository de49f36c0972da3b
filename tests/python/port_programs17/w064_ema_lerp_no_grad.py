import copy
import torch
import torch.nn as nn


class EMA:
    def __init__(self, model, decay=0.9):
        self.shadow = copy.deepcopy(model).eval()
        for p in self.shadow.parameters():
            p.requires_grad_(False)
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.lerp_(p, 1 - self.decay)
        for s, b in zip(self.shadow.buffers(), model.buffers()):
            s.copy_(b)


m = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1)))
ema = EMA(m)
ema2 = {k: v.clone() for k, v in m.state_dict().items() if v.dtype.is_floating_point}
opt = torch.optim.SGD(m.parameters(), lr=0.1)
x, y = data(8, 3, seed=1), data(8, 1, seed=2)
for _ in range(4):
    loss = ((m(x) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema.update(m)
    with torch.no_grad():
        for k, v in m.state_dict().items():
            if v.dtype.is_floating_point:
                ema2[k].mul_(0.9).add_(v, alpha=0.1)
report(ema=ema.shadow[0].weight, ema2=ema2["0.weight"], nbt=ema.shadow[1].num_batches_tracked, rg=ema.shadow[0].weight.requires_grad,
       out=ema.shadow(x)[:3])
