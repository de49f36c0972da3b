import torch

x = torch.zeros(3, 4)
x[0] = torch.tensor([1.0, 2.0, 3.0, 4.0])
x[1:, 0] = 7
x[:, -1] += torch.tensor([10.0, 20.0, 30.0])
x[x == 0] = -1
x[[0, 2], [1, 2]] = torch.tensor([5.0, 6.0])
x[2, :2] = x[0, 2:]
y = torch.zeros(2, 2, dtype=torch.long)
y[0] = 3.7
z = torch.arange(6.0)
z[::2] *= 10
w = torch.zeros(2, 3)
w[:, torch.tensor([True, False, True])] = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
report(x=x, y=y, z=z, w=w)
