import torch
x = torch.arange(6.0).view(2, 3)
y = x.t()
y.mul_(10)
z = x[:, 1:]
z.zero_()
w = x.view(-1)
w[0] = -1
d = x.diagonal()
d.fill_(7)
x.T[2].add_(100)
report(x=x, ct=[x.is_contiguous(), y.is_contiguous(), x.t().contiguous().is_contiguous()], st=y.stride(), sh=x.T.shape, mT=torch.ones(2, 3, 4).mT.shape)
