import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)))
x, y = data(5, 3), ints(2, 5)
nn.functional.cross_entropy(m(x), y).backward()
norms = {n: p.grad.norm().item() for n, p in m.named_parameters()}
total = torch.norm(torch.stack([p.grad.detach().norm(2) for p in m.parameters()]), 2)
maxg = max(p.grad.abs().max() for p in m.parameters())
ratio = {n: (p.grad.norm() / p.norm()).item() for n, p in m.named_parameters() if p.ndim > 1}
fr = torch._foreach_norm([p.grad for p in m.parameters()])
report(norms=norms, total=total, maxg=maxg, ratio=ratio, fr=fr)
