import torch
a = data(2, 3, 4)
b = data(4, 5, seed=2)
report(e1=torch.einsum("ijk,kl->ijl", a, b).sum((0, 1)), e2=torch.einsum("ijk->kji", a).shape, e3=torch.einsum("iij->j", torch.arange(18.0).view(3, 3, 2)),
       e4=torch.einsum("i,j->ij", torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0])), e5=torch.einsum("bij,bjk->bik", a, a.transpose(1, 2)).diagonal(dim1=1, dim2=2),
       e6=torch.einsum("...k,k->...", a, torch.ones(4)), e7=torch.einsum(a, [0, 1, 2], [2]), td=torch.tensordot(a, b, dims=1).shape,
       td2=torch.tensordot(a, a, dims=([1, 2], [1, 2])), td3=torch.tensordot(torch.ones(2, 3), torch.ones(3, 2), dims=([1], [0])), e8=torch.einsum("ii", torch.eye(3) * 2))
