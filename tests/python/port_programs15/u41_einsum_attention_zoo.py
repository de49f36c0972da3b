import torch

a = data(2, 3, 4)
b = data(2, 4, 5, seed=2)
v = data(4, seed=3)
M = data(4, 4, seed=4)
r = {}
r["bmm"] = torch.allclose(torch.einsum("bij,bjk->bik", a, b), a @ b, atol=1e-6)
r["trace"] = torch.einsum("ii", M)
r["diag"] = torch.einsum("ii->i", M)
r["outer"] = torch.einsum("i,j->ij", v, v)[1]
r["bilinear"] = torch.einsum("bn,anm,bm->ba", data(2, 3, seed=5), data(4, 3, 6, seed=6), data(2, 6, seed=7))
r["ellipsis"] = torch.einsum("...ij->...ji", a).shape
r["sum_all"] = torch.einsum("bij->", a)
r["list_form"] = torch.einsum(a, [0, 1, 2], b, [0, 2, 3], [0, 1, 3])[1, 0]
r["spaces"] = torch.einsum("b i j , b j k -> b i k", a, b)[0, 0, :2]
q = data(2, 5, 2, 4, seed=8)
k = data(2, 6, 2, 4, seed=9)
r["heads"] = torch.einsum("bqhd,bkhd->bhqk", q, k).shape
r["batch_diag"] = torch.einsum("bii->bi", data(3, 2, 2, seed=10))
r["repeat_idx"] = torch.einsum("ij,ij->i", M, M)
r["tensordot"] = torch.tensordot(a, b[0], dims=([2], [0])).shape
r["td_int"] = torch.tensordot(M, M, dims=2)
r["kron"] = torch.kron(torch.eye(2), torch.tensor([[1., 2.], [3., 4.]]))
r["chain"] = torch.linalg.multi_dot([M, M, v.unsqueeze(1)]).squeeze()
r["inner"] = torch.inner(v, v)
r["cross"] = torch.linalg.cross(torch.tensor([1., 0, 0]), torch.tensor([0., 1, 0]))
report(**r)
