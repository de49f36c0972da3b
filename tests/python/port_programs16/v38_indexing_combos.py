import torch

x = torch.arange(60).view(3, 4, 5)
m = torch.tensor([True, False, True, True])
a = x[:, m]
b = x[1:, m, ::2]
c = x[..., torch.tensor([0, 4])]
d = x[None, 1, ..., None]
e = x[torch.tensor([0, 2]), :, torch.tensor([1, 3])]
f = x[:, torch.tensor([[0, 1], [2, 3]])]
g = x[x > 50]
h = x[[0, 1], [1, 2]]
i = x[torch.tensor(1), 2]
j = x[0][[True, False, True, False]]
k = x[-1, -2:, [-1]]
report(a=a.shape, b=b, c=c.shape, d=d.shape, e=e, f=f.shape, f01=f[0, 1], g=g, h=h, i=i, j=j, k=k, shape_e=e.shape)
