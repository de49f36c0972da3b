import torch
import torch.nn as nn


class LinearFn(torch.autograd.Function):
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


class MyLinear(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(o, i))
        self.bias = nn.Parameter(torch.empty(o))

    def forward(self, x):
        return LinearFn.apply(x, self.weight, self.bias)


m = det(MyLinear(3, 2), seed=1)
ref = det(nn.Linear(3, 2), seed=1)
x = data(4, 3, seed=2).requires_grad_()
m(x).pow(2).sum().backward()
gx = x.grad.clone()
x.grad = None
ref(x).pow(2).sum().backward()
report(gw=m.weight.grad, gb=m.bias.grad, same=[torch.allclose(gx, x.grad), torch.allclose(m.weight.grad, ref.weight.grad)],
       gc=torch.autograd.gradcheck(LinearFn.apply, (data(2, 3, seed=3).double().requires_grad_(),
                                                    data(2, 3, seed=4).double().requires_grad_(), None)))
