import torch
import torch.nn as nn


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, **kw):
        defaults = dict(rho=rho, **kw)
        super().__init__(params, defaults)
        self.base_optimizer = base_optimizer(self.param_groups, **kw)
        self.param_groups = self.base_optimizer.param_groups

    @torch.no_grad()
    def first_step(self):
        grad_norm = torch.norm(torch.stack([p.grad.norm(p=2) for g in self.param_groups for p in g["params"] if p.grad is not None]), p=2)
        for group in self.param_groups:
            scale = group["rho"] / (grad_norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                e_w = p.grad * scale
                p.add_(e_w)
                self.state[p]["e_w"] = e_w

    @torch.no_grad()
    def second_step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.sub_(self.state[p]["e_w"])
        self.base_optimizer.step()


m = det(nn.Linear(3, 1))
opt = SAM(m.parameters(), torch.optim.SGD, rho=0.1, lr=0.1, momentum=0.9)
x, y = data(6, 3, seed=1), data(6, 1, seed=2)
for _ in range(2):
    nn.functional.mse_loss(m(x), y).backward()
    opt.first_step()
    opt.zero_grad()
    nn.functional.mse_loss(m(x), y).backward()
    opt.second_step()
    opt.zero_grad()
report(w=m.weight, b=m.bias, keys=sorted(opt.param_groups[0].keys()))
