import math
import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base, r=2, alpha=4):
        super().__init__()
        self.base = base
        self.A = nn.Parameter(torch.zeros(r, base.in_features))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.scaling = alpha / r
        base.weight.requires_grad_(False)
        if base.bias is not None:
            base.bias.requires_grad_(False)

    def forward(self, x):
        return self.base(x) + (x @ self.A.t() @ self.B.t()) * self.scaling

    def merge(self):
        self.base.weight.data += self.B @ self.A * self.scaling


model = det(nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2)))
for i in (0, 2):
    model[i] = LoRALinear(model[i])
with torch.no_grad():
    model[0].A.copy_(data(2, 4, seed=5) * 0.1)
    model[2].A.copy_(data(2, 4, seed=6) * 0.1)
x = data(3, 4, seed=1)
base_out = model(x)
opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=0.1)
for _ in range(2):
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
before = model(x)
for i in (0, 2):
    model[i].merge()
    model[i].B.data.zero_()
report(base=base_out, merged=torch.allclose(before, model(x), atol=1e-5), trainable=[n for n, p in model.named_parameters() if p.requires_grad])
