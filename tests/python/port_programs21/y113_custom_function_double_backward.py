import torch


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g


class ScaleGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, s):
        ctx.s = s
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return g * ctx.s, None


x = data(3, seed=1).requires_grad_()
y = Square.apply(x)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
(gg,) = torch.autograd.grad(g.sum(), x)
w = data(3, seed=2).requires_grad_()
ScaleGrad.apply(w, 0.1).pow(2).sum().backward()
m = data(2, 2, seed=3).requires_grad_()
out = Square.apply(m).mean()
out.backward()
report(g=g.detach(), gg=gg, wg=w.grad, mg=m.grad, name=type(y.grad_fn).__name__)
