import torch


@torch.no_grad()
def predict(m, x):
    return m(x)


@torch.inference_mode()
def infer(x):
    return x * 2


@torch.enable_grad()
def force(x):
    return x * 3


class Thing:
    @torch.no_grad()
    def method(self, x):
        return x + 1


lin = det(torch.nn.Linear(2, 2))
x = data(3, 2)
a = predict(lin, x)
b = infer(x.requires_grad_())
with torch.no_grad():
    c = force(x)
d = Thing().method(x)
with torch.set_grad_enabled(False):
    e = lin(x)
torch.set_grad_enabled(True)
ctx = torch.no_grad
with ctx():
    f = x * 2
with torch.inference_mode(mode=False):
    g = x * 2
import functools


@functools.wraps(predict)
def wrapper(*args):
    return predict(*args)


report(a=a.requires_grad, b=[b.requires_grad, b.is_inference()], c=c.requires_grad, d=d.requires_grad, e=e.requires_grad,
       f=f.requires_grad, g=g.requires_grad, enabled=torch.is_grad_enabled(), name=predict.__name__, wname=wrapper.__name__,
       inf=torch.is_inference_mode_enabled(), val=a)
