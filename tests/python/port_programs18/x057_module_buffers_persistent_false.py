import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))
        self.register_buffer("cache", torch.ones(2), persistent=False)
        self.register_parameter("extra", None)

    def forward(self, x):
        self.steps += 1
        return self.lin(x) * self.cache


m = det(M())
m(data(1, 2))
m(data(1, 2))
sd = m.state_dict()
m2 = M()
m2.load_state_dict(sd)
m.half()
report(keys=list(sd.keys()), steps=m2.steps, buffers=[n for n, _ in m.named_buffers()], dt=[m.steps.dtype, m.cache.dtype],
       params=[n for n, _ in m.named_parameters()], extra=m.extra is None)
