import torch
x = torch.arange(20.0).view(4, 5)
x[:, 1].mul_(2)
x.diagonal().fill_(-1)
x[1:3, 2:4] += 100
x.t()[0].add_(0.5)
x.narrow(1, 4, 1).copy_(torch.tensor([[9.0], [8.0], [7.0], [6.0]]))
row = x[3]
row[::2] = 0
v = x.view(20)
v[-1] = 42
x[x > 50] = -x[x > 50]
x.index_put_((torch.tensor([0, 0]), torch.tensor([1, 1])), torch.tensor([1.0, 2.0]), accumulate=True)
x[[0, 2], [3, 4]] = torch.tensor([11.0, 12.0])
x[..., 0] = torch.arange(4.0)
x[:, None, 2].clamp_(max=10)
y = torch.zeros(3, 4)
y.select(1, 2).add_(1)
y.unsqueeze(0)[0, 1, :2] = 5
for c in y.chunk(2, dim=1):
    c.mul_(2).add_(1)
a, b = y.split([1, 2])
b.sub_(a)
z = torch.ones(2, 3, requires_grad=True)
w = z * 2
w[0, 1] = 0
w.view(-1)[4] *= 3
w.sum().backward()
q = torch.zeros(6)
q[1::2] = torch.tensor([1.0, 2.0, 3.0])
q.masked_fill_(q == 2, 20)
q.masked_scatter_(q == 0, torch.tensor([7.0, 8.0, 9.0]))
e = torch.eye(3)
e.transpose(0, 1)[0, 2] = 5
e.flatten()
e.T[1].zero_()
s = torch.arange(6).view(2, 3)
s[0] //= 2
s[1] %= 4
s[:, 0] <<= 1
s2 = s.clone(); s2.bitwise_and_(3)
report(x=x, y=y, a=a, b=b, zg=z.grad, w=w, q=q, e=e, s=s, s2=s2, wgf=type(w.grad_fn).__name__ if False else None)
