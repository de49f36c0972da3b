import torch
import torch.nn as nn
from collections import defaultdict
class Lookahead(torch.optim.Optimizer):
    def __init__(self, base, k=3, alpha=0.5):
        self.base, self.k, self.alpha = base, k, alpha
        self.param_groups = base.param_groups
        self.state = defaultdict(dict)
        self.defaults = base.defaults
        self._step = 0
        for g in self.param_groups:
            for p in g["params"]:
                self.state[p]["slow"] = p.detach().clone()
    @torch.no_grad()
    def step(self, closure=None):
        loss = self.base.step(closure)
        self._step += 1
        if self._step % self.k == 0:
            for g in self.param_groups:
                for p in g["params"]:
                    slow = self.state[p]["slow"]
                    slow.add_(p - slow, alpha=self.alpha)
                    p.copy_(slow)
        return loss
    def zero_grad(self, set_to_none=True):
        self.base.zero_grad(set_to_none)
model = det(nn.Linear(4, 1))
opt = Lookahead(torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9))
x, y = data(16, 4), data(16, 1, seed=3)
L = []
for i in range(7):
    def closure():
        opt.zero_grad()
        l = nn.functional.mse_loss(model(x), y)
        l.backward()
        return l
    L.append(opt.step(closure).item())
report(L=L, w=model.weight, slow=opt.state[model.weight]["slow"], grad_none=model.weight.grad is None, isopt=isinstance(opt, torch.optim.Optimizer))
