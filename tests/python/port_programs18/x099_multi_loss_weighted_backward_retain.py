import torch
import torch.nn as nn

shared = det(nn.Linear(3, 4))
h1, h2 = det(nn.Linear(4, 2), seed=2), det(nn.Linear(4, 1), seed=3)
x = data(5, 3, seed=1)
feat = torch.relu(shared(x))
l1 = nn.functional.cross_entropy(h1(feat), torch.tensor([0, 1, 0, 1, 1]))
l2 = nn.functional.mse_loss(h2(feat).squeeze(-1), data(5, seed=4))
l1.backward(retain_graph=True)
g1 = shared.weight.grad.clone()
l2.backward(retain_graph=True)
g12 = shared.weight.grad.clone()
shared.zero_grad()
(0.5 * l1 + 2 * l2).backward()
report(g1=g1[0], g12=g12[0], gw=shared.weight.grad[0], l1=l1, l2=l2)
