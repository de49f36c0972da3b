import torch
from torch.func import vmap, grad


class NumpySort(torch.autograd.Function):
    @staticmethod
    def forward(x, dim):
        idx = torch.argsort(x, dim=dim)
        ind_inv = torch.argsort(idx, dim=dim)
        result = torch.take_along_dim(x, idx, dim=dim)
        return result, idx, ind_inv

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim = inputs
        _, idx, ind_inv = output
        ctx.mark_non_differentiable(idx, ind_inv)
        ctx.save_for_backward(idx, ind_inv)
        ctx.dim = dim

    @staticmethod
    def backward(ctx, grad_output, _0, _1):
        idx, ind_inv = ctx.saved_tensors
        return torch.take_along_dim(grad_output, ind_inv, dim=ctx.dim), None


class MyCube(torch.autograd.Function):
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
        result = grad_output * dx + grad_dx * 6 * x
        return result


def my_cube(x):
    result, _ = MyCube.apply(x)
    return result


x = torch.tensor([[3.0, 1.0, 2.0], [0.5, -1.0, 4.0]], requires_grad=True)
y, idx, inv = NumpySort.apply(x, 1)
(y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
xs = torch.tensor(0.7)
gg = grad(grad(my_cube))(xs)
g1 = grad(my_cube)(xs)
report(y=y, idx=idx, inv=inv, xg=x.grad, gg=gg, g1=g1, req=[idx.requires_grad, y.requires_grad])
