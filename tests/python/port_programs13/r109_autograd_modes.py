import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
@torch.no_grad()
def f(a):
    return a * 2
y = f(x)
with torch.no_grad():
    with torch.enable_grad():
        z = x * 3
torch.set_grad_enabled(False)
w = x * 4
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    v = x + 1
u = x.detach()
u2 = x * 5
u2.detach_()
p = (x * 2).sum()
p.backward(retain_graph=True)
p.backward()
g2 = x.grad.clone()
try:
    q = (x * 2).sum(); q.backward(); q.backward(); err1 = None
except RuntimeError:
    err1 = "RuntimeError"
try:
    (x * 2).backward(); err2 = None
except RuntimeError:
    err2 = "RuntimeError"
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.exp()
b.add_(1)
try:
    b.sum().backward(); err3 = None
except RuntimeError:
    err3 = "RuntimeError"
c = torch.tensor([3.0], requires_grad=True)
gg = torch.autograd.grad(c ** 3, c, create_graph=True)[0]
gg2 = torch.autograd.grad(gg, c)[0]
report(y=y.requires_grad, z=z.requires_grad, w=w.requires_grad, v=v.requires_grad, u=u.requires_grad, u2=u2.requires_grad, g2=g2, err1=err1, err2=err2, err3=err3, gg=gg, gg2=gg2,
       grad_mode=torch.is_grad_enabled(), leaf=[x.is_leaf, z.is_leaf, u.is_leaf])
