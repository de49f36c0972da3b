import torch
import torch.nn as nn
import torch.nn.functional as F

proj = det(nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 4)), seed=2)
x1 = data(4, 5, seed=1)
x2 = x1 + 0.1 * data(4, 5, seed=2)
z = F.normalize(torch.cat([proj(x1), proj(x2)]), dim=1)
tau = 0.5
sim = z @ z.t() / tau
n = z.shape[0]
sim = sim.masked_fill(torch.eye(n, dtype=torch.bool), float("-inf"))
targets = torch.cat([torch.arange(n // 2, n), torch.arange(0, n // 2)])
loss = F.cross_entropy(sim, targets)
loss.backward()
report(loss=loss.item(), sim=sim.detach(), g=proj[2].weight.grad, diag_inf=bool(torch.isinf(sim.diag()).all()))
