import torch

a, b, c = data(2, 3, 4, seed=1), data(2, 4, 5, seed=2), data(3, seed=3)
W = data(6, 3, 4, seed=4)
x1, x2 = data(2, 3, seed=5), data(2, 4, seed=6)
report(bmm=torch.einsum("bij,bjk->bik", a, b)[0], tr=torch.einsum("ii", data(3, 3, seed=7)), outer=torch.einsum("i,j->ij", c, c),
       bil=torch.einsum("bi,kij,bj->bk", x1, W, x2), bil2=torch.nn.functional.bilinear(x1, x2, W),
       ell=torch.einsum("...ij->...ji", a).shape, diag=torch.einsum("bii->bi", data(2, 3, 3, seed=8)), sum_=torch.einsum("bij->", a),
       tensordot=torch.tensordot(a, b, dims=([2], [1])).shape, td2=torch.tensordot(c, c, dims=1), kron=torch.kron(torch.eye(2), torch.ones(1, 2)),
       chain=torch.linalg.multi_dot([data(2, 3, seed=9), data(3, 4, seed=10), data(4, 2, seed=11)]))
