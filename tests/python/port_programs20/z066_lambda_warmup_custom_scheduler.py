import math
import torch
from torch.optim.lr_scheduler import LambdaLR, LRScheduler

p = torch.nn.Parameter(torch.zeros(2))
opt = torch.optim.AdamW([p], lr=1e-3)
warm, total = 3, 10


def lr_lambda(step):
    if step < warm:
        return float(step) / float(max(1, warm))
    progress = float(step - warm) / float(max(1, total - warm))
    return max(0.0, 0.5 * (1.0 + math.cos(math.pi * progress)))


s = LambdaLR(opt, lr_lambda)
a = []
for _ in range(total):
    a.append(s.get_last_lr()[0])
    opt.step()
    s.step()


class Halving(LRScheduler):
    def __init__(self, optimizer, every, last_epoch=-1):
        self.every = every
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [base * 0.5 ** (self.last_epoch // self.every) for base in self.base_lrs]


o2 = torch.optim.SGD([p], lr=1.0)
h = Halving(o2, 2)
b = []
for _ in range(6):
    b.append(o2.param_groups[0]["lr"])
    o2.step()
    h.step()
report(a=a, b=b, last_epoch=s.last_epoch, sd=sorted(k for k in s.state_dict() if not k.startswith("_")), initial=o2.param_groups[0]["initial_lr"])
