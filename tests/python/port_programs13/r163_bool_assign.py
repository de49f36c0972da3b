import torch
x = torch.arange(12.0).view(3, 4)
m = x > 5
x[m] = x[m] * 10
rows = torch.tensor([True, False, True])
x[rows, 1:3] = -1.0
x[:, torch.tensor([True, False, False, True])] += 0.5
y = torch.zeros(3, 4)
y[x > 0] = torch.arange(float((x > 0).sum()))
z = torch.zeros(2, 3, dtype=torch.int64)
z[torch.tensor([[True, False, True], [False, True, False]])] = torch.tensor([7, 8, 9])
w = torch.ones(4)
w[torch.tensor([0, 2])] = torch.tensor([5.0, 6.0])
w[[True, False, True, False]] = 0.0
report(x=x, y=y, z=z, w=w)
