import torch

A = data(3, 3)
B = data(2, 3, 4, seed=2)
C = data(4, 5, seed=3)
v = data(3, seed=4)
tr = torch.einsum("ii", A)
diag = torch.einsum("ii->i", A)
outer = torch.einsum("i,j->ij", v, v)
bil = torch.einsum("i,ij,j->", v, A, v)
chain = torch.einsum("bij,jk->bik", B, C)
ell = torch.einsum("...ij,...jk", B, C)
perm = torch.einsum("abc->cab", B)
sums = torch.einsum("abc->b", B)
listform = torch.einsum(B, [0, 1, 2], C, [2, 3], [0, 1, 3])
spaced = torch.einsum("b i j , j k -> b i k", B, C)
batched_dot = torch.einsum("bi,bi->b", B[:, :, 0], B[:, :, 1])
report(tr=tr, diag=diag, outer=outer, bil=bil, chain_eq=torch.allclose(chain, ell, atol=1e-6), perm=list(perm.shape), sums=sums,
       lf=torch.allclose(listform, chain, atol=1e-6), sp=torch.allclose(spaced, chain), bd=batched_dot, chain=chain[1, 2])
