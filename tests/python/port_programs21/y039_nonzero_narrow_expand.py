import torch

x = torch.tensor([[0, 1, 0], [2, 0, 3]])
nz = torch.nonzero(x)
r, c = torch.nonzero(x, as_tuple=True)
t = torch.arange(10).view(2, 5)
n = t.narrow(1, 1, 3)
n2 = torch.narrow(t, 0, 1, 1)
nt = torch.narrow(t, 1, torch.tensor(2), 2)
e = torch.tensor([[1.0], [2.0]]).expand(2, 3)
err = None
try:
    e.add_(1)
except RuntimeError as ex:
    err = "single memory location" in str(ex)
e2 = e.clone()
e2.add_(1)
ea = torch.ones(3).expand(2, -1)
report(nz=nz, r=r, c=c, n=n, n2=n2, nt=nt, err=err, e2=e2, ea=ea.shape, estride=ea.stride(), n_is_view=n._base is t,
       argwhere=torch.argwhere(x), cnz=torch.count_nonzero(x, dim=0), ncont=n.is_contiguous(), e_as=torch.ones(1, 3).expand_as(t[:, :3]))
