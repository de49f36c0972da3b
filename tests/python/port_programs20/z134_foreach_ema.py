import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(3, 3), nn.LayerNorm(3)))
ema = [p.detach().clone() for p in model.parameters()]
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = data(4, 3)
for _ in range(3):
    opt.zero_grad()
    model(x).pow(2).mean().backward()
    opt.step()
    with torch.no_grad():
        torch._foreach_lerp_(ema, list(model.parameters()), 0.1)
        torch._foreach_mul_(ema, 1.0)
norms = torch._foreach_norm(ema)
added = torch._foreach_add(ema, 1.0)
report(ema0=ema[0], norms=norms, added=added[2], n=len(added))
