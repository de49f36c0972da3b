import torch
x = torch.tensor([3, 1, 2, 3, 1, 5])
u, inv, cnt = torch.unique(x, return_inverse=True, return_counts=True)
uc, cc = torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1]), return_counts=True)
m = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 9]])
um, minv = torch.unique(m, dim=0, return_inverse=True)
uc1 = torch.unique(torch.tensor([[1, 1, 2], [1, 1, 2]]), dim=1)
report(u=u, inv=inv, cnt=cnt, uc=uc, cc=cc, um=um, minv=minv, uc1=uc1, uf=torch.unique(torch.tensor([2.5, -1.0, 2.5])),
       uns=torch.unique(x, sorted=True))
