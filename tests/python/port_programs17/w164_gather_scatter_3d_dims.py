import torch

x = torch.arange(24.0).view(2, 3, 4)
idx = torch.tensor([[[0, 2], [1, 1], [3, 0]], [[2, 2], [0, 1], [1, 3]]])
g = x.gather(2, idx)
s = torch.zeros(2, 3, 4).scatter(2, idx, 1.0)
sa = torch.zeros(2, 3, 4).scatter_add(2, idx, torch.ones(2, 3, 2))
s0 = torch.zeros(3, 4).scatter_(0, torch.tensor([[2, 1, 0, 2]]), torch.tensor([[5.0, 6.0, 7.0, 8.0]]))
sr = torch.zeros(2, 4).scatter(1, torch.tensor([[0, 0], [3, 3]]), torch.tensor([[1.0, 2.0], [3.0, 4.0]]), reduce="add")
sm = torch.ones(2, 4).scatter(1, torch.tensor([[1, 1], [2, 2]]), torch.tensor([[2.0, 3.0], [4.0, 5.0]]), reduce="multiply")
ic = torch.zeros(4, 2).index_copy(0, torch.tensor([3, 0]), torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
ifl = torch.zeros(3, 3).index_fill(1, torch.tensor([0, 2]), -1.0)
report(g=g, s=s[1], sa=sa[0], s0=s0, sr=sr, sm=sm, ic=ic, ifl=ifl)
