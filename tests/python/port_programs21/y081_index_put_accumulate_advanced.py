import torch

x = torch.zeros(5)
x.index_put_((torch.tensor([0, 1, 1, 3]),), torch.tensor([1.0, 2.0, 3.0, 4.0]), accumulate=True)
y = torch.zeros(3, 3)
y[torch.tensor([0, 2]), torch.tensor([1, 1])] = torch.tensor([5.0, 6.0])
z = torch.arange(12.0).view(3, 4)
rows = torch.tensor([[0], [2]])
cols = torch.tensor([1, 3])
w = torch.zeros(4, 4)
w[torch.arange(4), torch.arange(4)] = 1
b = torch.arange(24).view(2, 3, 4)
m = torch.zeros(3, 4)
m[z > 5] = torch.arange(6.0)
report(x=x, y=y, adv=z[rows, cols], w=w, mixed=b[:, [0, 2], 1:3], mixed2=b[1, :, [0, 3]], bmask=b[b % 5 == 0],
       ell=b[..., [1]].shape, m=m, none=z[None, [0, 1]].shape, neg=z[[-1, 0]], bool_row=z[torch.tensor([True, False, True])])
