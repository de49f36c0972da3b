import torch
from torch.autograd.function import once_differentiable


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        r = x.exp()
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g


x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = Exp.apply(x)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
(gg,) = torch.autograd.grad(g.sum(), x)
z = Square.apply(x)
z.sum().backward()
ok = torch.autograd.gradcheck(Exp.apply, (torch.tensor([0.3, 0.7], dtype=torch.float64, requires_grad=True),))
report(g=g, gg=gg, xg=x.grad, ok=ok)
