import torch
from torch.autograd.function import once_differentiable
import torch.nn.functional as F


def convolution_backward(grad_out, X, weight):
    grad_input = F.conv2d(X.transpose(0, 1), grad_out.transpose(0, 1)).transpose(0, 1)
    grad_X = F.conv_transpose2d(grad_out, weight)
    return grad_X, grad_input


class Conv2D(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, weight):
        ctx.save_for_backward(X, weight)
        return F.conv2d(X, weight)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        X, weight = ctx.saved_tensors
        return convolution_backward(grad_out, X, weight)


def unsqueeze_all(t):
    return t[None, :, None, None]


def batch_norm_backward(grad_out, X, sum, sqrt_var, N, eps):
    tmp = ((X - unsqueeze_all(sum) / N) * grad_out).sum(dim=(0, 2, 3))
    tmp *= -1
    d_denom = tmp / (sqrt_var + eps) ** 2
    d_var = d_denom / (2 * sqrt_var)
    d_mean_dx = grad_out / unsqueeze_all(sqrt_var + eps)
    d_mean_dx = unsqueeze_all(-d_mean_dx.sum(dim=(0, 2, 3)) / N)
    grad_input = X * unsqueeze_all(d_var * N)
    grad_input += unsqueeze_all(-d_var * sum)
    grad_input *= 2 / ((N - 1) * N)
    grad_input += d_mean_dx
    grad_input *= unsqueeze_all(sqrt_var + eps)
    grad_input += grad_out
    grad_input /= unsqueeze_all(sqrt_var + eps)
    return grad_input


class BatchNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, eps=1e-3):
        sum = X.sum(dim=(0, 2, 3))
        var = X.var(unbiased=True, dim=(0, 2, 3))
        N = X.numel() / X.size(1)
        sqrt_var = torch.sqrt(var)
        ctx.save_for_backward(X)
        ctx.eps = eps
        ctx.sum = sum
        ctx.N = N
        ctx.sqrt_var = sqrt_var
        mean = sum / N
        denom = sqrt_var + eps
        out = X - unsqueeze_all(mean)
        out /= unsqueeze_all(denom)
        return out

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        X, = ctx.saved_tensors
        return batch_norm_backward(grad_out, X, ctx.sum, ctx.sqrt_var, ctx.N, ctx.eps)


a = torch.rand(1, 2, 3, 4, requires_grad=True, dtype=torch.double)
b = torch.rand(4, 2, 2, 2, requires_grad=True, dtype=torch.double)
c1 = torch.autograd.gradcheck(Conv2D.apply, (a, b))
a2 = torch.rand(2, 3, 4, 5, requires_grad=True, dtype=torch.double)
c2 = torch.autograd.gradcheck(BatchNorm.apply, (a2,), fast_mode=False)
X = torch.from_numpy(data(2, 3, 5, 5, seed=4).numpy().astype('float64')).requires_grad_()
W = torch.from_numpy(data(4, 3, 3, 3, seed=5).numpy().astype('float64')).requires_grad_()
out = BatchNorm.apply(Conv2D.apply(X, W))
(out * torch.arange(out.numel(), dtype=torch.double).view_as(out) / 100).sum().backward()
ref_X = X.detach().clone().requires_grad_()
ref_W = W.detach().clone().requires_grad_()
co = F.conv2d(ref_X, ref_W)
m = co.mean(dim=(0, 2, 3), keepdim=True)
sd = co.var(dim=(0, 2, 3), keepdim=True, unbiased=True).sqrt()
ref = (co - m) / (sd + 1e-3)
(ref * torch.arange(ref.numel(), dtype=torch.double).view_as(ref) / 100).sum().backward()
try:
    y = Conv2D.apply(X, W)
    g, = torch.autograd.grad(y.sum(), X, create_graph=True)
    g.sum().backward()
    twice = "ok"
except RuntimeError as e:
    twice = "once_differentiable" in str(e) or "trying to differentiate twice" in str(e)
report(c1=c1, c2=c2, xg=torch.allclose(X.grad, ref_X.grad), wg=torch.allclose(W.grad, ref_W.grad), w=W.grad[0, 0, 0], twice=twice)
