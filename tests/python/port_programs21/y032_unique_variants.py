import torch

x = torch.tensor([3, 1, 2, 3, 1, 7, 2, 2])
u = torch.unique(x)
u2, inv = torch.unique(x, return_inverse=True)
u3, cnt = torch.unique(x, return_counts=True)
u4, inv4, cnt4 = x.unique(sorted=True, return_inverse=True, return_counts=True)
m = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 9]])
ur, invr = torch.unique(m, dim=0, return_inverse=True)
uc = torch.unique(torch.tensor([[1, 1, 2], [3, 3, 4]]), dim=1)
cons, ccnt = torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1]), return_counts=True)
f = torch.tensor([0.5, -1.0, 0.5, 2.0])
report(u=u, u2=u2, inv=inv, u3=u3, cnt=cnt, u4=u4, inv4=inv4, cnt4=cnt4, ur=ur, invr=invr, uc=uc, cons=cons, ccnt=ccnt,
       uf=f.unique(), rebuilt=torch.equal(u2[inv], x))
