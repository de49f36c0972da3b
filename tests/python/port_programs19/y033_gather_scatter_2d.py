import torch
x = torch.arange(12.0).view(3, 4)
idx = torch.tensor([[0, 3], [1, 1], [2, 0]])
g = x.gather(1, idx)
z = torch.zeros(3, 4).scatter(1, idx, 1.0)
z2 = torch.zeros(3, 4).scatter_(1, idx, torch.tensor([[5.0, 6.0], [7.0, 8.0], [9.0, 1.0]]))
t = torch.take_along_dim(x, x.argmax(1, keepdim=True), 1)
g0 = x.gather(0, torch.tensor([[2, 1, 0, 0]]))
report(g=g, z=z, z2=z2, t=t, g0=g0, tk=torch.take(x, torch.tensor([0, 5, 11])))
