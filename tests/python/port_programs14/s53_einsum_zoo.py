import torch

a = data(2, 3, 4)
b = data(2, 4, 5, seed=2)
c = data(3, 3, seed=3)
v = data(4, seed=4)
out = {
    "bmm": torch.einsum("bij,bjk->bik", a, b),
    "trace": torch.einsum("ii", c),
    "diag": torch.einsum("ii->i", c),
    "outer": torch.einsum("i,j->ij", v, v[:3]),
    "sum_all": torch.einsum("bij->", a),
    "transpose": torch.einsum("bij->bji", a),
    "ellipsis": torch.einsum("...ij,...jk->...ik", a, b),
    "bilinear": torch.einsum("bi,ij,bj->b", a[:, 0, :3], c, a[:, 1, :3]),
    "list_form": torch.einsum("ij,jk", [c, c]),
    "heads": torch.einsum("bhqd,bhkd->bhqk", a.view(2, 3, 2, 2), a.view(2, 3, 2, 2)),
    "spaces": torch.einsum("b i j , b j k -> b i k", a, b),
    "int": torch.einsum("ij,j->i", torch.arange(6).view(2, 3), torch.tensor([1, 2, 3])),
}
report(**out, intdt=out["int"].dtype)
