import torch
from torch.autograd.function import once_differentiable


class SortWithIdx(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        vals, idx = torch.sort(x, dim=-1)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return vals, idx

    @staticmethod
    @once_differentiable
    def backward(ctx, gv, gi):
        (idx,) = ctx.saved_tensors
        g = torch.zeros_like(gv)
        g.scatter_(-1, idx, gv)
        return g


class Clamp01(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x)
        return x.clamp_(0, 1)

    @staticmethod
    def backward(ctx, g):
        return g


x = data(2, 4, seed=1).requires_grad_()
v, i = SortWithIdx.apply(x)
(v * torch.arange(4.0)).sum().backward()
w = data(4, seed=2).requires_grad_()
t = w * 1.0
out = Clamp01.apply(t)
out.sum().backward()
report(v=v.detach(), i=i, ireq=i.requires_grad, gx=x.grad, gw=w.grad, same=out is t, t=t.detach())
