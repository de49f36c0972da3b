import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp


def f(x):
    return torch.stack([x[0] * x[1], torch.sin(x[1]) + x[2] ** 2, x.sum()])


def g(x):
    return (x ** 3).sum() + x[0] * x[2]


x = data(3, seed=1)
v = data(3, seed=2)
J = jacobian(f, x)
H = hessian(g, x)
out, vj = vjp(f, x, v)
out2, jv = jvp(f, x, v)
_, hv = hvp(g, x, v)
_, vh = vhp(g, x, v)
J2 = jacobian(lambda a, b: a * b + b, (x, v))
report(J=J, H=H, vj=vj, jv=jv, hv=hv, vh=vh, out=out, J2a=J2[0], J2b=J2[1],
       Jc=jacobian(f, x, create_graph=True).requires_grad, vec=jacobian(f, x, vectorize=True))
