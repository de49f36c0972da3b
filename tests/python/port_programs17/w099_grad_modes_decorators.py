import torch


@torch.no_grad()
def f(x):
    return x * 2


@torch.enable_grad()
def g(x):
    return x * 3


@torch.inference_mode()
def h(x):
    return x + 1


x = torch.ones(2, requires_grad=True)
a = f(x)
with torch.no_grad():
    b = g(x)
c = h(x)
with torch.set_grad_enabled(False):
    d = x * 4
torch.set_grad_enabled(True)
e = x.detach().requires_grad_(True) * 5
with torch.autograd.set_grad_enabled(False):
    with torch.enable_grad():
        k = x * 6
report(rg=[a.requires_grad, b.requires_grad, c.requires_grad, d.requires_grad, e.requires_grad, k.requires_grad],
       ge=torch.is_grad_enabled(), leaf=[a.is_leaf, b.is_leaf, e.is_leaf])
