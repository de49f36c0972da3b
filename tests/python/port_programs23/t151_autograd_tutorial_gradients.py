import torch

x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
names = [type(y.grad_fn).__name__, type(z.grad_fn).__name__, type(out.grad_fn).__name__]
a = torch.tensor([[0.5, -1.0], [2.0, 3.0]])
a = ((a * 3) / (a - 1))
rg0 = a.requires_grad
a.requires_grad_(True)
rg1 = a.requires_grad
b = (a * a).sum()
bname = type(b.grad_fn).__name__
out.backward()
xg = x.grad
x2 = torch.tensor([0.5, 1.5, -0.25], requires_grad=True)
y2 = x2 * 2
while y2.data.norm() < 1000:
    y2 = y2 * 2
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y2.backward(v)
flags = [x2.requires_grad, (x2 ** 2).requires_grad]
with torch.no_grad():
    flags.append((x2 ** 2).requires_grad)
y3 = x2.detach()
flags += [y3.requires_grad, x2.eq(y3).all().item()]
report(names=names, out=out, rg=[rg0, rg1], bname=bname, xg=xg, y2=y2, x2g=x2.grad, flags=flags)
