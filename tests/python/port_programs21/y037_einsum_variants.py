import torch

a = data(2, 3, seed=1)
b = data(3, 4, seed=2)
c = data(5, 2, 3, seed=3)
d = data(5, 3, 4, seed=4)
v = data(3, seed=5)
report(mm=torch.einsum("ij,jk->ik", a, b), tr=torch.einsum("ii", data(3, 3, seed=6)),
       diag=torch.einsum("ii->i", data(3, 3, seed=6)), outer=torch.einsum("i,j->ij", v, v),
       bmm=torch.einsum("bij,bjk->bik", c, d)[2], dot=torch.einsum("i,i->", v, v),
       ell=torch.einsum("...ij,...jk->...ik", c, d)[4], t=torch.einsum("ij->ji", a),
       sum_=torch.einsum("bij->b", c), list_form=torch.einsum("ij,jk", [a, b]),
       sub=torch.einsum(a, [0, 1], b, [1, 2], [0, 2]), bil=torch.einsum("bn,anm,bm->ba", a, data(2, 3, 3, seed=7), a),
       upper=torch.einsum("IJ,JK->IK", a, b), space=torch.einsum("i j , j k -> i k", a, b))
