import torch
from torch.autograd.functional import hessian, jacobian


def f(x):
    return torch.stack([x[0] ** 2 * x[1], x[1].sin() + x[0]])


x = torch.tensor([1.0, 2.0])
J = jacobian(f, x)
H = hessian(lambda x: (x ** 3).sum() + x[0] * x[1], x)
y = torch.tensor(3.0, requires_grad=True)
g = torch.autograd.grad(y ** 4, y, create_graph=True)[0]
g2 = torch.autograd.grad(g, y, create_graph=True)[0]
g3 = torch.autograd.grad(g2, y)[0]
report(J=J, H=H, g=g, g2=g2, g3=g3)
