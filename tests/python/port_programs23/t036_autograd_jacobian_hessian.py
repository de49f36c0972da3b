import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp


def exp_adder(x, y):
    return 2 * x.exp() + 3 * y


inputs = (torch.tensor([0.1, 0.2]), torch.tensor([0.5, -0.3]))
J = jacobian(exp_adder, inputs)


def pow_reducer(x):
    return x.pow(3).sum()


H = hessian(pow_reducer, torch.tensor([1.0, -2.0]))


def f(x):
    return x ** 2 + x.sin()


v = torch.tensor([1.0, 0.5, -1.0])
xin = torch.tensor([0.3, 1.0, 2.0])
out_vjp, vjp_val = vjp(f, xin, v)
out_jvp, jvp_val = jvp(f, xin, v)
report(J=list(J), H=H, vjp=vjp_val, jvp=jvp_val, out=out_vjp)
