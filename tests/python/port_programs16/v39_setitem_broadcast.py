import torch

x = torch.zeros(3, 4)
x[0] = torch.tensor([1.0, 2.0, 3.0, 4.0])
x[:, 1] = 5
x[1:, 2:] = torch.tensor([[7.0], [8.0]])
x[x == 0] = -1
x[[0, 2], [3, 0]] = torch.tensor([9.0, 10.0])
y = torch.zeros(2, 3, dtype=torch.int64)
y[0] = 2.7
y[1, :2] = torch.tensor([1.9, -1.9])
z = torch.zeros(5)
z[torch.tensor([1, 1, 3])] = torch.tensor([1.0, 2.0, 3.0])
w = torch.arange(6.0).view(2, 3)
w[:, [0, 2]] += 10
w[..., -1] *= -1
v = torch.zeros(2, 2, 2)
v[:, 0, :] = torch.tensor([1.0, 2.0])
bool_t = torch.zeros(3, dtype=torch.bool)
bool_t[1] = 5
try:
    torch.arange(4)[::-1]
    neg = "ok"
except ValueError as err:
    neg = "ValueError"
report(x=x, y=y, z=z, w=w, v=v, bool_t=bool_t, neg=neg)
