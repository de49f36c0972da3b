import torch
from torch.autograd import Function


class Cube(Function):
    @staticmethod
    def forward(x, scale):
        return x ** 3 * scale

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, scale = inputs
        ctx.save_for_backward(x)
        ctx.scale = scale

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * 3 * x ** 2 * ctx.scale, None


class ClampGrad(Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.lo, ctx.hi = lo, hi
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        return g.clamp(ctx.lo, ctx.hi), None, None


class Sort2(Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.sort()
        ctx.save_for_backward(i)
        ctx.mark_non_differentiable(i)
        return v, i

    @staticmethod
    def backward(ctx, gv, gi):
        i, = ctx.saved_tensors
        return torch.zeros_like(gv).scatter(0, i, gv)


x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
y = Cube.apply(x, 2.0)
(y * torch.tensor([1.0, 0.1, 10.0])).sum().backward()
gx = x.grad.clone()
x.grad = None
z = ClampGrad.apply(x * 5, -1.0, 1.0)
(z * 3).sum().backward()
gz = x.grad.clone()
x.grad = None
v, i = Sort2.apply(x)
(v * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
report(y=y, gx=gx, gz=gz, v=v, i=i, i_rg=i.requires_grad, gs=x.grad, name=type(y.grad_fn).__name__.replace("Backward", ""))
