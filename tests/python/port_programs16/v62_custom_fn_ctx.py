import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class ScaledClamp(Function):
    @staticmethod
    def forward(ctx, x, lo, hi, scale):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi, ctx.scale = lo, hi, scale
        return x.clamp(lo, hi) * scale

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        mask = (x >= ctx.lo) & (x <= ctx.hi)
        return g * mask * ctx.scale, None, None, None


class ArgSortSoft(Function):
    @staticmethod
    def forward(ctx, x):
        idx = x.argsort()
        ctx.mark_non_differentiable(idx)
        y = x.sort().values
        ctx.save_for_backward(idx)
        return y, idx

    @staticmethod
    def backward(ctx, gy, gidx):
        (idx,) = ctx.saved_tensors
        return torch.zeros_like(gy).scatter(0, idx, gy)


class NeedsGrad(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.flags = tuple(ctx.needs_input_grad)
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return (g * b if ctx.needs_input_grad[0] else None), (g * a if ctx.needs_input_grad[1] else None)


x = torch.tensor([-2.0, -0.5, 0.3, 1.7, 0.9], requires_grad=True)
y = ScaledClamp.apply(x, -1.0, 1.0, 3.0)
y.sum().backward()
g1 = x.grad.clone()
x.grad = None
s, idx = ArgSortSoft.apply(x)
(s * torch.arange(5.0)).sum().backward()
a = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([3.0, 4.0])
p = NeedsGrad.apply(a, c)
p.sum().backward()
report(y=y.detach(), g1=g1, s=s.detach(), idx=idx, idx_rg=idx.requires_grad, g2=x.grad, p=p.detach(), ag=a.grad,
       name=type(y.grad_fn).__name__, flags=p.grad_fn.flags)
