import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 3).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
h = torch.autograd.grad(g.sum(), x)[0]
w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
out = (w @ w).trace()
gw = torch.autograd.grad(out, w, retain_graph=True)[0]
gw2 = torch.autograd.grad(out * 2, [w])[0]
report(g=g, h=h, g_req=g.requires_grad, gw=gw, gw2=gw2)
