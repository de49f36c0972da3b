import torch

x = torch.tensor([0.5, 2.0, 0.0, 3.0, -1.0], requires_grad=True)
y = torch.cumprod(x, 0)
y.sum().backward()
g1 = x.grad.clone()
x.grad = None
r = x.flip(0).cumsum(0).flip(0)
(r * torch.arange(5.0)).sum().backward()
g2 = x.grad.clone()
x.grad = None
lcse = torch.logcumsumexp(x, 0)
lcse.sum().backward()
disc = torch.tensor([1.0, 1.0, 1.0, 1.0])
gamma = 0.9
ret = torch.zeros(4)
run = 0.0
for t in reversed(range(4)):
    run = disc[t] + gamma * run
    ret[t] = run
report(y=y, g1=g1, g2=g2, lcse=lcse, g3=x.grad, ret=ret, cmx=torch.cummax(x.detach(), 0).values)
