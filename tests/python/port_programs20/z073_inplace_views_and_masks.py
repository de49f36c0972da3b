import torch

x = torch.arange(12.0).view(3, 4)
row = x[1]
row += 100
col = x[:, 2]
col.mul_(-1)
x[x > 100] = 0.5
x[[0, 2], [1, 3]] = torch.tensor([7.0, 8.0])
x.index_put_((torch.tensor([0]), torch.tensor([0])), torch.tensor([9.0]), accumulate=True)
y = torch.zeros(2, 3)
y[:, None, 1:] = 1
y.diagonal().fill_(4)
s = torch.arange(6.0)
s[::2] = s[1::2]
n = torch.arange(5)
n[n % 2 == 0] += 10
b = torch.ones(2, 2)
b.T[0] = 3
e = torch.ones(2, 3)
e.narrow(1, 0, 2).zero_()
f = torch.arange(6.0).reshape(2, 3)
f.masked_scatter_(f > 2, torch.tensor([10.0, 20.0, 30.0]))
report(x=x, y=y, s=s, n=n, b=b, e=e, f=f, ver=x._version > 0)
