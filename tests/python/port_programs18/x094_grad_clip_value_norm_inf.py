import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2)))
x = data(5, 3, seed=1) * 10
m(x).pow(2).sum().backward()
g0 = [p.grad.clone() for p in m.parameters()]
tn = nn.utils.clip_grad_norm_(m.parameters(), 1.0, norm_type="inf")
after_inf = max(p.grad.abs().max() for p in m.parameters())
for p, g in zip(m.parameters(), g0):
    p.grad = g.clone()
t2 = nn.utils.clip_grad_norm_(m.parameters(), 2.0, norm_type=2.0)
total = torch.norm(torch.stack([torch.norm(p.grad.detach(), 2) for p in m.parameters()]), 2)
for p, g in zip(m.parameters(), g0):
    p.grad = g.clone()
nn.utils.clip_grad_value_(m.parameters(), clip_value=0.5)
report(tn=tn, after_inf=after_inf, t2=t2, total=total, vmax=max(p.grad.abs().max() for p in m.parameters()),
       g=m[0].bias.grad)
