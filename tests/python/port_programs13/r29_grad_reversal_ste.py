import torch
import torch.nn as nn
class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.lambd, None
def grad_reverse(x, lambd=1.0):
    return GradReverse.apply(x, lambd)
class STEBinarize(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.sign(x)
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * (x.abs() <= 1).float()
class RoundSTE(torch.autograd.Function):
    forward = staticmethod(lambda ctx, x: torch.round(x))
    backward = staticmethod(lambda ctx, g: g)
feat = det(nn.Linear(4, 6), 0); cls = det(nn.Linear(6, 2), 1); dom = det(nn.Linear(6, 1), 2)
x = data(5, 4); y = ints(2, 5); d = torch.tensor([0., 1., 0., 1., 1.])
h = feat(x)
loss = nn.functional.cross_entropy(cls(h), y) + nn.functional.binary_cross_entropy_with_logits(dom(grad_reverse(h, 0.5)).squeeze(1), d)
loss.backward()
w = data(3, 4, seed=3).requires_grad_()
b = STEBinarize.apply(w * 2)
(b * data(3, 4, seed=4)).sum().backward()
r = torch.tensor([0.4, 1.6, 2.5, -0.5], requires_grad=True)
RoundSTE.apply(r * 3).sum().backward()
report(loss=loss, gf=feat.weight.grad[0], gd=dom.weight.grad, b=b, gw=w.grad, gr=r.grad, fn=b.grad_fn is not None)
