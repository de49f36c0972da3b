import torch


class RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.round(x)

    @staticmethod
    def backward(ctx, g):
        return g


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        return g.neg() * ctx.alpha, None


x = (data(5, seed=1) * 3).requires_grad_()
y = RoundSTE.apply(x)
(y * torch.arange(5.0)).sum().backward()
w = data(3, seed=2).requires_grad_()
GradReverse.apply(w * 2, 0.5).sum().backward()
z = data(4, seed=3).requires_grad_()
q = z + (torch.round(z) - z).detach()
(q ** 2).sum().backward()
report(y=y.detach(), gx=x.grad, gw=w.grad, q=q.detach(), gz=z.grad, fn=type(y.grad_fn).__name__.startswith("RoundSTE"))
