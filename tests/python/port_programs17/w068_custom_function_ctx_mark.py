import torch


class ClampGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
        return x.clamp(lo, hi)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        mask = (x >= ctx.lo) & (x <= ctx.hi)
        return g * mask + 0.1 * g * ~mask, None, None


class SortWithIdx(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.sort()
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        return v, i

    @staticmethod
    def backward(ctx, gv, gi):
        (i,) = ctx.saved_tensors
        return torch.zeros_like(gv).scatter(-1, i, gv)


class InplaceDouble(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return 2 * g


x = data(6, seed=1).requires_grad_()
y = ClampGrad.apply(x, -0.5, 0.5)
(y * torch.arange(6.0)).sum().backward()
g1 = x.grad.clone()
x.grad = None
v, i = SortWithIdx.apply(x)
(v * torch.arange(6.0)).sum().backward()
z = x.detach().clone().requires_grad_()
w = z * 1
InplaceDouble.apply(w)
w.sum().backward()
report(g1=g1, g2=x.grad, i=i, irg=i.requires_grad, zg=z.grad, name=type(y.grad_fn).__name__)
