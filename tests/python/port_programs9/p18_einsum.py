import torch
b, h, q, k, d = 2, 3, 4, 5, 6
Q = data(b, h, q, d); K = data(b, h, k, d, seed=2); V = data(b, h, k, d, seed=3)
scores = torch.einsum("bhqd,bhkd->bhqk", Q, K) / d ** 0.5
attn = scores.softmax(dim=-1)
out = torch.einsum("bhqk,bhkd->bhqd", attn, V)
ref = torch.softmax(Q @ K.transpose(-2, -1) / d ** 0.5, -1) @ V
x = data(7, 4, seed=4); W = data(4, 4, seed=5); y = data(7, 4, seed=6)
bil = torch.einsum("bi,ij,bj->b", x, W, y)
tr = torch.einsum("ii", W); diag = torch.einsum("ii->i", W)
outer = torch.einsum("i,j->ij", x[0], y[0])
bmm = torch.einsum("bij,bjk->bik", data(3, 2, 4, seed=7), data(3, 4, 5, seed=8))
ell = torch.einsum("...ij->...ji", data(2, 3, 4, seed=9))
summ = torch.einsum("bhqd->bh", Q)
xr = x.clone().requires_grad_()
g = torch.einsum("bi,ij->bj", xr, W).pow(2).sum()
g.backward()
mha = torch.einsum("bqhd,bkhd->bhqk", Q.transpose(1, 2), K.transpose(1, 2))
report(out=out[0, 0], close=torch.allclose(out, ref, atol=1e-5), bil=bil, tr=tr, diag=diag, outer=outer[:2], bmm=bmm[0], ell=ell.shape,
       summ=summ, grad=xr.grad, mha=torch.allclose(mha, scores * d ** 0.5, atol=1e-4), spaced=torch.einsum("b i , i j -> b j", x, W)[0])
