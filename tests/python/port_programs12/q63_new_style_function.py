import torch
from torch.autograd import Function
class MyCube(Function):
    @staticmethod
    def forward(x):
        result = x ** 3
        dx = 3 * x ** 2
        return result, dx
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)
    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        return grad_output * dx + grad_dx * 6 * x
class ScaleInplace(Function):
    @staticmethod
    def forward(ctx, x, k):
        x.mul_(k)
        ctx.mark_dirty(x)
        ctx.k = k
        return x
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None
class NumpySort(Function):
    @staticmethod
    def forward(ctx, x, dim):
        ind = torch.from_numpy(x.detach().cpu().numpy().argsort(axis=dim))
        ind_inv = torch.argsort(ind, dim=dim)
        ctx.save_for_backward(ind, ind_inv)
        ctx.mark_non_differentiable(ind, ind_inv)
        ctx.dim = dim
        return torch.gather(x, dim, ind), ind, ind_inv
    @staticmethod
    def backward(ctx, g, _0, _1):
        ind, ind_inv = ctx.saved_tensors
        return torch.gather(g, ctx.dim, ind_inv), None
x = data(4).requires_grad_()
r, dx = MyCube.apply(x)
(r.sum() + dx.sum()).backward()
g1 = x.grad.clone()
gg = torch.autograd.grad(MyCube.apply(x)[0].sum(), x, create_graph=True)[0]
a = data(3, seed=3).requires_grad_()
b = a.clone()
out = ScaleInplace.apply(b, 2.0)
(out * out).sum().backward()
y = data(2, 4, seed=4).requires_grad_()
s, ind, inv = NumpySort.apply(y, 1)
(s * torch.arange(4.0)).sum().backward()
report(r=r, dx=dx, g1=g1, gg=gg, same=out is b, ag=a.grad, s=s, ind=ind, yg=y.grad, name=type(r.grad_fn).__name__ if False else None)
