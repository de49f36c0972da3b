import torch
import torch.nn as nn
from torch.optim import Optimizer


class SignSGD(Optimizer):
    def __init__(self, params, lr=0.01, momentum=0.0):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        super().__init__(params, dict(lr=lr, momentum=momentum))

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
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["buf"] = torch.zeros_like(p)
                state["step"] += 1
                buf = state["buf"]
                buf.mul_(group["momentum"]).add_(p.grad)
                p.add_(buf.sign(), alpha=-group["lr"])
        return loss


m = det(nn.Linear(3, 2))
opt = SignSGD(m.parameters(), lr=0.05, momentum=0.5)
x, y = data(5, 3), data(5, 2, seed=2)


def closure():
    opt.zero_grad()
    l = nn.functional.mse_loss(m(x), y)
    l.backward()
    return l


ls = [opt.step(closure).item() for _ in range(4)]
sd = opt.state_dict()
report(ls=ls, w=m.weight, step=sd["state"][0]["step"], keys=sorted(sd["state"][0].keys()), pg=sd["param_groups"][0]["lr"])
