import torch
x = torch.arange(10)
report(ch=[c.tolist() for c in x.chunk(3)], ch4=[c.tolist() for c in torch.chunk(torch.arange(6), 4)], sp=[s.tolist() for s in x.split(4)], sps=[s.tolist() for s in x.split([2, 3, 5])],
       ts=[s.tolist() for s in torch.tensor_split(x, 3)], tsi=[s.tolist() for s in torch.tensor_split(x, [2, 7])], hs=[s.shape for s in torch.hsplit(torch.zeros(2, 6), 3)],
       ub=[u.tolist() for u in torch.arange(6).view(2, 3).unbind(1)], nr=x.narrow(0, 2, 3), uf=x.unfold(0, 4, 3))
