import torch
import torch.nn as nn

D = det(nn.Sequential(nn.Linear(3, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1)))
real, fake = data(4, 3, seed=1), data(4, 3, seed=2)
alpha = torch.tensor([[0.1], [0.5], [0.7], [0.9]])
interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
d = D(interp)
grads = torch.autograd.grad(outputs=d, inputs=interp, grad_outputs=torch.ones_like(d), create_graph=True,
                            retain_graph=True)[0]
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
loss = D(fake).mean() - D(real).mean() + 10 * gp
loss.backward()
report(gp=gp, loss=loss, g=D[0].weight.grad[0], gnorm=grads.norm(2, dim=1))
