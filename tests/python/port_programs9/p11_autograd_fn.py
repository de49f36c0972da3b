import torch
from torch.autograd import Function
class LinearFunction(Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output
    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias
class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None
class StraightThroughRound(Function):
    @staticmethod
    def forward(ctx, x):
        return torch.round(x)
    @staticmethod
    def backward(ctx, g):
        return g
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)
linear = LinearFunction.apply
x = data(4, 3).requires_grad_(); w = data(2, 3, seed=3).requires_grad_(); b = data(2, seed=4).requires_grad_()
y = linear(x, w, b)
(y ** 2).sum().backward()
inp = (torch.randn(5, 3, dtype=torch.double, requires_grad=True), torch.randn(2, 3, dtype=torch.double, requires_grad=True))
ok = torch.autograd.gradcheck(linear, inp, eps=1e-6, atol=1e-4)
z = data(3).requires_grad_()
MulConstant.apply(z, 2.5).sum().backward()
q = data(5).requires_grad_()
StraightThroughRound.apply(q * 3).sum().backward()
xs = torch.linspace(-1, 1, 50)
ys = torch.sin(xs)
a = torch.full((), 0.0, requires_grad=True); bb = torch.full((), -1.0, requires_grad=True)
c = torch.full((), 0.0, requires_grad=True); d = torch.full((), 0.3, requires_grad=True)
P3 = LegendrePolynomial3.apply
for t in range(50):
    y_pred = a + bb * P3(c + d * xs)
    loss = (y_pred - ys).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        for p in (a, bb, c, d):
            p -= 5e-3 * p.grad
            p.grad = None
report(y=y, xg=x.grad, wg=w.grad, bg=b.grad, ok=ok, zg=z.grad, qg=q.grad, coeffs=[a.item(), bb.item(), c.item(), d.item()],
       loss=loss.item(), gfn=type(y.grad_fn).__name__)
