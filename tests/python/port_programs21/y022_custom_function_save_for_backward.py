import torch


class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        y = torch.exp(x) * scale
        ctx.save_for_backward(y)
        ctx.scale = scale
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * y, None


class MulAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, c):
        ctx.save_for_backward(a, b)
        return a * b + c

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        ga = gb = gc = None
        if ctx.needs_input_grad[0]:
            ga = g * b
        if ctx.needs_input_grad[1]:
            gb = g * a
        if ctx.needs_input_grad[2]:
            gc = g
        return ga, gb, gc


x = data(3, seed=1).requires_grad_()
y = MyExp.apply(x, 2.0)
y.sum().backward()
a = data(3, seed=2).requires_grad_()
b = data(3, seed=3)
c = data(3, seed=4).requires_grad_()
z = MulAdd.apply(a, b, c)
(z * z).sum().backward()
report(y=y.detach(), gx=x.grad, ga=a.grad, gc=c.grad, bg=b.grad is None, fn=type(z.grad_fn).__name__,
       check=torch.autograd.gradcheck(MulAdd.apply, (a.detach().double().requires_grad_(), b.double(),
                                                      c.detach().double().requires_grad_())))
