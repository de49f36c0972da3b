import torch

x = torch.arange(10)
m = torch.arange(12).view(3, 4)
report(ts=torch.tensor_split(x, 3), ts2=torch.tensor_split(x, [2, 5, 9]), ts3=x.tensor_split((1, 8)),
       ts4=torch.tensor_split(m, 3, dim=1), tst=torch.tensor_split(x, torch.tensor([3, 7])),
       ch=torch.chunk(x, 3), ch2=x.chunk(4), ch3=torch.arange(5).chunk(4), ch4=torch.arange(6).chunk(4),
       sp=torch.split(x, 4), sp2=x.split([3, 3, 4]), ub=m.unbind(1), ub0=torch.unbind(m),
       hs=torch.hsplit(m, 2), vs=torch.vsplit(m, [1]), ds=torch.dsplit(torch.arange(8).view(1, 2, 4), 2))
