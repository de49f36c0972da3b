import torch
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2)))
x = data(1, 4)
baseline = torch.zeros_like(x)
steps = 20
alphas = torch.linspace(0, 1, steps + 1).view(-1, 1)
path = (baseline + alphas * (x - baseline)).requires_grad_(True)
out = model(path)[:, 1].sum()
g, = torch.autograd.grad(out, path)
avg = (g[:-1] + g[1:]).mean(0) / 2
ig = (x - baseline) * avg
completeness = ig.sum() - (model(x)[0, 1] - model(baseline)[0, 1])
sal = torch.autograd.grad(model(x.clone().requires_grad_())[0, 1], [x.requires_grad_()], allow_unused=True)
report(ig=ig, comp=completeness.abs() < 1e-2, sal=sal[0] is None)
