import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable
class Clamp01(Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
        return x.clamp(lo, hi)
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * ((x >= ctx.lo) & (x <= ctx.hi)).to(g.dtype), None, None
class SortWithIdx(Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.sort(dim=-1)
        ctx.save_for_backward(i)
        ctx.mark_non_differentiable(i)
        return v, i
    @staticmethod
    def backward(ctx, gv, gi):
        i, = ctx.saved_tensors
        return torch.zeros_like(gv).scatter(-1, i, gv)
class MulAdd(Function):
    @staticmethod
    def forward(ctx, a, b, c):
        ctx.save_for_backward(a, b)
        return a * b + c
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        ga = gb = gc = None
        if ctx.needs_input_grad[0]: ga = g * b
        if ctx.needs_input_grad[1]: gb = g * a
        if ctx.needs_input_grad[2]: gc = g
        return ga, gb, gc
class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result
class Scale(Function):
    @staticmethod
    def forward(ctx, x, k=2.0):
        ctx.set_materialize_grads(False)
        ctx.k = k
        return x * k, x.detach() + 1
    @staticmethod
    def backward(ctx, g1, g2):
        out = 0
        if g1 is not None: out = out + g1 * ctx.k
        if g2 is not None: out = out + g2
        return out, None
x = data(6).requires_grad_()
y = Clamp01.apply(x * 2, -0.5, 0.5); y.sum().backward(); g1 = x.grad.clone(); x.grad = None
v, i = SortWithIdx.apply(x); (v * torch.arange(6.0)).sum().backward(); g2 = x.grad.clone()
a = data(3, seed=3).requires_grad_(); b = data(3, seed=4); c = data(3, seed=5).requires_grad_()
MulAdd.apply(a, b, c).pow(2).sum().backward()
e = data(4, seed=6).requires_grad_()
Exp.apply(e).sum().backward()
s = data(3, seed=7).requires_grad_()
o1, o2 = Scale.apply(s, 3.0); o1.sum().backward()
gs = s.grad.clone()
dbl = torch.tensor([0.3, -0.2], dtype=torch.float64, requires_grad=True)
ok = torch.autograd.gradcheck(lambda t: MulAdd.apply(t, t * 2, t), (dbl,))
report(y=y, g1=g1, v=v, i=i, irg=i.requires_grad, g2=g2, ga=a.grad, gb=b.grad, gc=c.grad, ge=e.grad, gs=gs, o2rg=o2.requires_grad, ok=ok, name=type(y.grad_fn).__name__)
