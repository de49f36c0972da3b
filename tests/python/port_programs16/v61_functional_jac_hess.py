import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def f(x, y):
    return torch.stack([x.sum() * y[0], (x ** 2).sum() + y.prod()])


def scalar(x):
    return (x.sin() * x).sum()


x = torch.tensor([0.5, 1.0, -1.5])
y = torch.tensor([2.0, 3.0])
J = jacobian(f, (x, y))
Jv = jacobian(lambda a: a.exp() * a, x, vectorize=False)
H = hessian(scalar, x)
out, vp = vjp(f, (x, y), torch.tensor([1.0, -1.0]))
out2, jp = jvp(scalar, x, torch.ones(3))
_, hv = hvp(scalar, x, torch.tensor([1.0, 0.0, 0.0]))
_, vh = vhp(scalar, x, torch.tensor([0.0, 1.0, 0.0]))
Jc = jacobian(lambda a: a.cumsum(0), x, create_graph=True)
Hs = hessian(lambda a, b: (a * b).sum() ** 2, (x, x.flip(0)))
report(J0=J[0], J1=J[1], Jv=Jv, H=H, vp=list(vp), jp=jp, hv=hv, vh=vh, Jc=Jc.detach(), Jc_rg=Jc.requires_grad, Hs01=Hs[0][1])
