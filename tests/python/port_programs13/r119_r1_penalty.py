import torch
import torch.nn as nn
import torch.nn.functional as F
D = det(nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.LeakyReLU(0.2), nn.AvgPool2d(2), nn.Conv2d(4, 4, 3, padding=1), nn.Softplus(), nn.Flatten(), nn.Linear(64, 1)), 0, 0.3)
real = data(3, 1, 8, 8).requires_grad_(True)
out = D(real)
grad, = torch.autograd.grad(out.sum(), real, create_graph=True)
r1 = grad.pow(2).reshape(3, -1).sum(1).mean()
loss = F.softplus(-out).mean() + 5.0 * r1
loss.backward()
report(r1=r1, out=out.squeeze(1), g0=D[0].weight.grad[0, 0], g3=D[3].weight.grad.abs().sum(), gl=D[6].bias.grad)
