import torch
import torch.nn as nn
from torch.optim import Optimizer
class Lion(Optimizer):
    def __init__(self, params, lr=1e-4, betas=(0.9, 0.99), weight_decay=0.0):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        defaults = dict(lr=lr, betas=betas, weight_decay=weight_decay)
        super().__init__(params, defaults)
    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.data.mul_(1 - group["lr"] * group["weight_decay"])
                grad = p.grad
                state = self.state[p]
                if len(state) == 0:
                    state["exp_avg"] = torch.zeros_like(p)
                exp_avg = state["exp_avg"]
                beta1, beta2 = group["betas"]
                update = exp_avg * beta1 + grad * (1 - beta1)
                p.add_(torch.sign(update), alpha=-group["lr"])
                exp_avg.mul_(beta2).add_(grad, alpha=1 - beta2)
        return loss
class SGDM(torch.optim.Optimizer):
    def __init__(self, params, lr=0.1, momentum=0.9):
        super(SGDM, self).__init__(params, {"lr": lr, "momentum": momentum})
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None: continue
                buf = self.state[p].setdefault("buf", torch.zeros_like(p.data))
                buf.mul_(group["momentum"]).add_(p.grad.data)
                p.data.add_(-group["lr"], buf) if False else p.data.add_(buf, alpha=-group["lr"])
class WarmupCosine(torch.optim.lr_scheduler.LRScheduler):
    def __init__(self, optimizer, warmup, total, last_epoch=-1):
        self.warmup, self.total = warmup, total
        super().__init__(optimizer, last_epoch)
    def get_lr(self):
        import math
        e = self.last_epoch
        if e < self.warmup:
            return [b * (e + 1) / self.warmup for b in self.base_lrs]
        t = (e - self.warmup) / max(1, self.total - self.warmup)
        return [b * 0.5 * (1 + math.cos(math.pi * t)) for b in self.base_lrs]
x = data(10, 4); y = data(10, 1, seed=3)
res = {}
for name, mk in {"lion": lambda p: Lion(p, lr=1e-2, weight_decay=0.1), "sgdm": lambda p: SGDM(p, lr=0.05)}.items():
    m = det(nn.Linear(4, 1)); o = mk(m.parameters()); s = WarmupCosine(o, 2, 6)
    hist, lrs = [], []
    for _ in range(6):
        def closure():
            o.zero_grad(); l = nn.functional.mse_loss(m(x), y); l.backward(); return l
        l = o.step(closure) if name == "lion" else (closure(), o.step())[0]
        s.step(); hist.append(l.item()); lrs.append(round(s.get_last_lr()[0], 8))
    sd = o.state_dict()
    o2 = mk(det(nn.Linear(4, 1)).parameters()); o2.load_state_dict(sd)
    res[name] = [hist, lrs, m.weight, sorted(sd["state"][0].keys()), o2.param_groups[0]["lr"], sorted(o.defaults)]
report(**res)
