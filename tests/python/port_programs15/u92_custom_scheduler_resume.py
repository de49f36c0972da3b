import math
import torch
from torch.optim.lr_scheduler import LRScheduler, LambdaLR, CosineAnnealingLR


class WarmupCosine(LRScheduler):
    def __init__(self, optimizer, warmup, total, last_epoch=-1):
        self.warmup, self.total = warmup, total
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self.last_epoch
        if e < self.warmup:
            return [b * (e + 1) / self.warmup for b in self.base_lrs]
        prog = (e - self.warmup) / max(1, self.total - self.warmup)
        return [b * 0.5 * (1 + math.cos(math.pi * prog)) for b in self.base_lrs]


p = torch.nn.Parameter(torch.zeros(2))
opt = torch.optim.SGD([p], lr=1.0)
sch = WarmupCosine(opt, 3, 10)
lrs = [opt.param_groups[0]["lr"]]
for _ in range(5):
    opt.step()
    sch.step()
    lrs.append(round(opt.param_groups[0]["lr"], 6))
state = sch.state_dict()
opt2 = torch.optim.SGD([p], lr=1.0)
sch2 = WarmupCosine(opt2, 3, 10)
sch2.load_state_dict(state)
opt2.param_groups[0]["lr"] = sch2.get_last_lr()[0]
more = []
for _ in range(3):
    opt2.step()
    sch2.step()
    more.append(round(sch2.get_last_lr()[0], 6))
opt3 = torch.optim.SGD([p], lr=0.5)
for g in opt3.param_groups:
    g["initial_lr"] = 0.5
cos = CosineAnnealingLR(opt3, T_max=6, last_epoch=2)
cl = []
for _ in range(3):
    opt3.step()
    cos.step()
    cl.append(round(opt3.param_groups[0]["lr"], 6))
lam = LambdaLR(torch.optim.SGD([p], lr=0.2), lr_lambda=[lambda e: 0.5 ** e])
report(lrs=lrs, more=more, last_epoch=state["last_epoch"], base=state["base_lrs"], cl=cl, lam=lam.get_last_lr(),
       keys=sorted(k for k in state if not k.startswith("_")))
