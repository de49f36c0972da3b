import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp


def f(x):
    return torch.stack([x[0] ** 2 * x[1], torch.sin(x[1]) + x[0]])


def g(x):
    return (x ** 3).sum() + x[0] * x[1]


x = torch.tensor([1.0, 2.0])
J = jacobian(f, x)
H = hessian(g, x)
_, v1 = vjp(f, x, torch.tensor([1.0, 1.0]))
_, v2 = jvp(f, x, torch.tensor([1.0, 0.0]))
_, v3 = hvp(g, x, torch.tensor([0.0, 1.0]))
J2 = jacobian(lambda a, b: a * b, (x, x + 1))
report(J=J, H=H, v1=v1, v2=v2, v3=v3, J2=list(J2))
