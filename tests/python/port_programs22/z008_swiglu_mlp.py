import torch
import torch.nn as nn
import torch.nn.functional as F

class LlamaMLP(nn.Module):
    def __init__(self, hidden, inter):
        super().__init__()
        self.gate_proj = nn.Linear(hidden, inter, bias=False)
        self.up_proj = nn.Linear(hidden, inter, bias=False)
        self.down_proj = nn.Linear(inter, hidden, bias=False)
        self.act_fn = nn.SiLU()

    def forward(self, x):
        return self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))

class SwiGLU(nn.Module):
    def forward(self, x):
        x, gate = x.chunk(2, dim=-1)
        return F.silu(gate) * x

mlp = det(LlamaMLP(6, 16), seed=7)
x = data(2, 3, 6, seed=8)
y = mlp(x)
y.sum().backward()
fused = det(nn.Sequential(nn.Linear(6, 32), SwiGLU(), nn.Linear(16, 6)), seed=9)
z = fused(x)
report(y=y[1], g=mlp.gate_proj.weight.grad[:2], z=z[0], silu=F.silu(torch.tensor([-3.0, -0.5, 0.0, 2.0])))
