import torch

inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
g1 = inp.grad.clone()
x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
y = x * 2
i = 0
while y.data.norm() < 100:
    y = y * 2
    i += 1
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
report(g1=g1, y=y, i=i, xg=x.grad, norm=y.data.norm())
