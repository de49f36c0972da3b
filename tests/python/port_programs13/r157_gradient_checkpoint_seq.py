import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint_sequential, checkpoint
model = det(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 2)))
x = data(3, 4).requires_grad_()
out = checkpoint_sequential(model, 2, x, use_reentrant=False)
out.sum().backward()
g1 = model[0].weight.grad.clone(); gx = x.grad.clone()
model.zero_grad(); x.grad = None
model(x).sum().backward()
same = torch.allclose(g1, model[0].weight.grad) and torch.allclose(gx, x.grad)
def block(a, b):
    return torch.sin(a) * b
a = data(3, seed=3).requires_grad_(); b = data(3, seed=4).requires_grad_()
y = checkpoint(block, a, b, use_reentrant=False)
y.sum().backward()
report(out=out, same=same, ga=a.grad, gb=b.grad)
