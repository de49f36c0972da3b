import torch

a, b, c = data(3, 4), data(4, 5, seed=2), data(5, 2, seed=3)
v, w = data(6, 4, seed=4), data(6, 4, seed=5)
report(vecdot=torch.linalg.vecdot(v, w), md=torch.linalg.multi_dot([a, b, c]), es=torch.einsum("ij,jk,kl->il", a, b, c), bil=torch.einsum("bi,ij,bj->b", v[:, :4], torch.eye(4), w),
       outer=torch.einsum("i,j->ij", v[0], w[0])[1], trace=torch.einsum("ii->", a[:, :3]).item(), diag=torch.einsum("ii->i", b[:4, :4]), batch=torch.einsum("bij,bjk->bik", a.expand(2, 3, 4), b.expand(2, 4, 5)).shape,
       ellipsis=torch.einsum("...j,j->...", v, w[0]))
