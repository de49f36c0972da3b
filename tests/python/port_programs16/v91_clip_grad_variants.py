import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2)))
x = data(5, 3)
(m(x) ** 2).sum().backward()
grads0 = [p.grad.clone() for p in m.parameters()]
n_inf = nn.utils.clip_grad_norm_(m.parameters(), max_norm=0.5, norm_type=float("inf"))
after_inf = m[0].weight.grad.clone()
for p, g in zip(m.parameters(), grads0):
    p.grad = g.clone()
n_1 = nn.utils.clip_grad_norm_(m.parameters(), 1.0, norm_type=1)
for p, g in zip(m.parameters(), grads0):
    p.grad = g.clone()
nn.utils.clip_grad_value_(m.parameters(), clip_value=0.3)
vals = m[1].weight.grad.clone()
total = torch.norm(torch.stack([torch.norm(g) for g in grads0]))
for p, g in zip(m.parameters(), grads0):
    p.grad = g.clone()
big = nn.utils.clip_grad_norm_(m.parameters(), 1e6)
m[0].bias.grad[0] = float("nan")
try:
    nn.utils.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True)
    err = None
except RuntimeError:
    err = "RuntimeError"
gn = nn.utils.get_total_norm([g for g in grads0]) if hasattr(nn.utils, "get_total_norm") else total
report(n_inf=n_inf, after_inf=after_inf, n_1=n_1, vals=vals, total=total, big=big, unchanged=torch.equal(m[1].weight.grad, grads0[2]), err=err, gn=gn)
