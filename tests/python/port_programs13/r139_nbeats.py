import torch
import torch.nn as nn
class Block(nn.Module):
    def __init__(self, back, fore, hidden, basis):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(back, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.theta = nn.Linear(hidden, basis.size(0) * 2, bias=False)
        self.register_buffer("bb", basis[:, :back])
        self.register_buffer("bf", basis[:, back:])
    def forward(self, x):
        th = self.theta(self.fc(x))
        tb, tf = th.chunk(2, -1)
        return tb @ self.bb, tf @ self.bf
back, fore = 8, 4
t = torch.linspace(0, 1, back + fore)
poly = torch.stack([t ** p for p in range(3)])
harm = torch.cat([torch.cos(2 * torch.pi * k * t).unsqueeze(0) for k in range(1, 3)] + [torch.sin(2 * torch.pi * k * t).unsqueeze(0) for k in range(1, 3)])
blocks = nn.ModuleList([Block(back, fore, 8, poly), Block(back, fore, 8, harm)])
det(blocks, 0, 0.3)
x = torch.sin(torch.arange(8.0) / 2).unsqueeze(0).repeat(3, 1) + data(3, 8) * 0.1
res, forecast = x, 0
for b in blocks:
    bc, fc = b(res)
    res = res - bc
    forecast = forecast + fc
forecast.sum().backward()
report(poly=poly[:, -1], harm=harm[:, 3], f=forecast[0], res=res[1, :3], nb=len(list(blocks.buffers())), g=blocks[1].theta.weight.grad.abs().sum())
