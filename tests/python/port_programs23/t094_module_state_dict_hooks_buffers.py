import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.register_buffer('running', torch.zeros(2))
        self.register_buffer('scratch', torch.ones(2), persistent=False)
        self.steps = 0

    def forward(self, x):
        if self.training:
            self.running.add_(x.mean(0).detach())
            self.steps += 1
        return self.lin(x) + self.running


m = det(M(), seed=1)
x = data(4, 2, seed=2)
m(x)
m(x)
sd = m.state_dict()
keys = list(sd.keys())
m.eval()
y = m(x)
bufs = [n for n, _ in m.named_buffers()]
mods = [n for n, _ in m.named_modules()]
children = [type(c).__name__ for c in m.children()]
m2 = M()
m2.load_state_dict(sd)
m2.eval()
extra = m.lin.extra_repr()
report(keys=keys, y=y, bufs=bufs, mods=mods, children=children, same=torch.equal(m2(x), y), steps=m.steps,
       extra=extra, running=sd['running'], repr=repr(m))
