import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp


def f(x):
    return torch.stack([x[0] ** 2 * x[1], torch.sin(x[1]) + x[0]])


def scalar(x):
    return (x ** 3).sum() + x[0] * x[1]


x = torch.tensor([1.0, 2.0])
r = {}
r["jac"] = jacobian(f, x)
r["hess"] = hessian(scalar, x)
_, r["vjp"] = vjp(f, x, torch.tensor([1.0, 1.0]))
_, r["jvp"] = jvp(f, x, torch.tensor([1.0, 0.0]))
_, r["hvp"] = hvp(scalar, x, torch.tensor([0.0, 1.0]))
y = x.clone().requires_grad_(True)
g, = torch.autograd.grad(scalar(y), y, create_graph=True)
g2, = torch.autograd.grad(g.sum(), y)
r["g"] = g.detach()
r["g2"] = g2
z = torch.tensor(2.0, requires_grad=True)
w = z ** 4
d1, = torch.autograd.grad(w, z, create_graph=True)
d2, = torch.autograd.grad(d1, z, create_graph=True)
d3, = torch.autograd.grad(d2, z)
r["d123"] = [d1.item(), d2.item(), d3.item()]
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 3
grads = torch.autograd.grad([b.sum(), (a ** 2).sum()], [a], grad_outputs=[torch.tensor(1.0), torch.tensor(2.0)])
r["multi_out"] = grads[0]
u = torch.tensor([1.0], requires_grad=True)
v = torch.tensor([1.0], requires_grad=True)
gu, gv = torch.autograd.grad((u * 2).sum(), [u, v], allow_unused=True)
r["unused"] = gv is None
q = torch.ones(3, requires_grad=True)
(q * torch.tensor([1., 2., 3.])).backward(torch.tensor([1., 0.5, 0.1]))
r["backward_grad"] = q.grad
jb = jacobian(lambda t: t.softmax(-1), torch.tensor([0.1, 0.2, 0.3]), vectorize=False)
r["jac_softmax_rows"] = jb.sum(1)
report(**r)
