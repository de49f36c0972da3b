import torch
import torch.nn as nn

lin = det(nn.Linear(3, 3))
x = data(2, 3).requires_grad_(True)
h = lin(x)
h.retain_grad()
a = torch.tanh(h)
a.retain_grad()
out = a * 2
out.backward(gradient=torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]]))
jac = torch.autograd.functional.jacobian(lambda t: lin(t).tanh(), x[0].detach())
hv = torch.autograd.functional.hvp(lambda t: (lin(t) ** 2).sum(), x[0].detach(), torch.ones(3))[1]
report(hg=h.grad, ag=a.grad, xg=x.grad, is_leaf=[x.is_leaf, h.is_leaf], jac=jac, hv=hv, rg=h.retains_grad)
