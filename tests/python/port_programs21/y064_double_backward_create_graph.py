import torch

x = data(3, seed=1).requires_grad_()
y = (x ** 3).sum()
(g,) = torch.autograd.grad(y, x, create_graph=True)
(gg,) = torch.autograd.grad(g.sum(), x)
w = data(2, 3, seed=2).requires_grad_()
inp = data(4, 3, seed=3).requires_grad_()
out = torch.tanh(inp @ w.t()).sum()
gi = torch.autograd.grad(out, inp, create_graph=True)[0]
pen = gi.pow(2).sum()
pen.backward()
a = torch.tensor(2.0, requires_grad=True)
b = a ** 4
d1 = torch.autograd.grad(b, a, create_graph=True)[0]
d2 = torch.autograd.grad(d1, a, create_graph=True)[0]
d3 = torch.autograd.grad(d2, a)[0]
report(g=g.detach(), gg=gg, wg=w.grad, pen=pen.item(), d=[d1.item(), d2.item(), d3.item()],
       allow=torch.autograd.grad((x * 2).sum(), [x, a], allow_unused=True)[1])
