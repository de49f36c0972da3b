import torch
import torch.nn as nn
import torch.nn.functional as F
model = det(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 3)))
x, y = data(5, 3), ints(3, 5)
params = list(model.parameters())
loss = F.cross_entropy(model(x), y)
grads = torch.autograd.grad(loss, params, create_graph=True)
v = [torch.ones_like(p) for p in params]
gv = sum((g * vv).sum() for g, vv in zip(grads, v))
hv = torch.autograd.grad(gv, params, retain_graph=True)
gnorm = torch.sqrt(sum(g.pow(2).sum() for g in grads))
gnorm.backward()
report(hv0=hv[0][0], hv3=hv[3], gnorm=gnorm, pg=params[2].grad[0])
