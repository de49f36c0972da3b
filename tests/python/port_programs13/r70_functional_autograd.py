import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp
def f(x):
    return torch.stack([x[0] ** 2 * x[1], torch.sin(x[1]) + x[0]])
def g(x):
    return (x ** 3).sum() + x[0] * x[1]
x = torch.tensor([1.0, 2.0])
J = jacobian(f, x)
H = hessian(g, x)
_, vj = vjp(f, x, torch.tensor([1.0, -1.0]))
_, jv = jvp(f, x, torch.tensor([0.5, 0.5]))
_, hv = hvp(g, x, torch.tensor([1.0, 0.0]))
Jm = jacobian(lambda a, b: a * b, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
xd = torch.tensor([0.3, 0.7], dtype=torch.float64, requires_grad=True)
ok = torch.autograd.gradcheck(lambda t: (t.sin() * t.exp()).sum(), (xd,), eps=1e-6, atol=1e-4)
ok2 = torch.autograd.gradgradcheck(lambda t: (t ** 3).sum(), (xd,))
report(J=J, H=H, vj=vj, jv=jv, hv=hv, Jm0=Jm[0], Jm1=Jm[1], ok=ok, ok2=ok2, vect=jacobian(f, x, vectorize=True))
