import torch


class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
        return x.clamp(lo, hi)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        passthrough = (x >= ctx.lo) & (x <= ctx.hi)
        return grad * passthrough + 0.1 * grad * ~passthrough, None, None


class MulAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, c=1.0):
        ctx.save_for_backward(a, b)
        ctx.c = c
        ctx.mark_non_differentiable
        return a * b + c, a - b

    @staticmethod
    def backward(ctx, g1, g2):
        a, b = ctx.saved_tensors
        return g1 * b + g2, g1 * a - g2, None


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y


x = torch.tensor([-2.0, 0.5, 3.0], requires_grad=True)
y = Clamp.apply(x, -1.0, 1.0)
y.sum().backward()
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, -1.0], requires_grad=True)
p, q = MulAdd.apply(a, b, 2.0)
(p.sum() + 2 * q.sum()).backward()
z = torch.tensor([0.1, 0.2], dtype=torch.float64, requires_grad=True)
ok = torch.autograd.gradcheck(Exp.apply, (z,), eps=1e-6, atol=1e-4)
e = Exp.apply(z)
report(y=y, g=x.grad, p=p, q=q, ga=a.grad, gb=b.grad, ok=ok, fn=type(e.grad_fn).__name__, fn2=y.grad_fn.name() if hasattr(y.grad_fn, "name") else "")
