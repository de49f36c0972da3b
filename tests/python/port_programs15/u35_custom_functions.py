import torch
from torch.autograd import Function, gradcheck


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


class LinearFn(Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        out = input.mm(weight.t())
        if bias is not None:
            out += bias.unsqueeze(0).expand_as(out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        gi = gw = gb = None
        if ctx.needs_input_grad[0]:
            gi = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            gw = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            gb = grad_output.sum(0)
        return gi, gw, gb


class StraightThroughRound(Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        return torch.round(x * scale) / scale

    @staticmethod
    def backward(ctx, g):
        return g, None


class MulConst(Function):
    @staticmethod
    def forward(ctx, x, c):
        ctx.mark_non_differentiable  # touched as users do
        ctx.c = c
        return x * c, x.detach().sign()

    @staticmethod
    def backward(ctx, g, g_sign):
        return g * ctx.c, None


x = data(4, 3).double().requires_grad_()
w = data(2, 3, seed=5).double().requires_grad_()
b = data(2, seed=6).double().requires_grad_()
ok = gradcheck(LinearFn.apply, (x, w, b), eps=1e-6, atol=1e-4)
y = Exp.apply(x[:, 0])
y.sum().backward()
z = data(5).requires_grad_()
q = StraightThroughRound.apply(z, 4.0)
(q * torch.arange(5.)).sum().backward()
u = data(3).requires_grad_()
m, s = MulConst.apply(u, 3.0)
m.sum().backward()
report(ok=ok, xg=x.grad[:, 0], q=q, zg=z.grad, ug=u.grad, s=s, s_rg=s.requires_grad, name=type(y.grad_fn).__name__)
