import torch
a = torch.arange(24.0).reshape(2, 3, 4); b = torch.arange(12.0).reshape(4, 3)
res = {}
res["td1"] = torch.tensordot(a, b, dims=([1, 2], [1, 0]))
res["td2"] = torch.tensordot(a, torch.ones(4, 2), dims=1)
res["td0"] = torch.tensordot(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0]), dims=0)
res["kron"] = torch.kron(torch.tensor([[1, 2], [3, 4]]), torch.tensor([[0, 1], [1, 0]]))
res["kronf"] = torch.kron(torch.eye(2), torch.tensor([[1.0, 2.0]]))
res["bd"] = torch.block_diag(torch.ones(2, 2), torch.tensor([[5.0]]), torch.tensor([[1.0, 2.0, 3.0]]))
res["cp"] = torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5]))
xs, ys = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="ij")
xx, yy = torch.meshgrid(torch.linspace(0, 1, 3), torch.linspace(0, 1, 2), indexing="xy")
res["mg"] = [xs, ys, xx, yy]
res["comb"] = [torch.combinations(torch.tensor([1, 2, 3, 4]), r=2), torch.combinations(torch.tensor([1, 2, 3]), with_replacement=True)]
res["outer"] = torch.outer(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.5, 0.25]))
res["cross"] = torch.linalg.cross(torch.tensor([[1.0, 0, 0], [0, 1, 0]]), torch.tensor([[0.0, 1, 0], [0, 0, 1]]))
res["bmm"] = torch.baddbmm(torch.ones(2, 2, 2), torch.arange(8.0).view(2, 2, 2), torch.arange(8.0).view(2, 2, 2), beta=0.5, alpha=2)
res["addmm"] = torch.addmm(torch.ones(2), torch.eye(2) * 3, torch.tensor([[1.0, 2.0], [3.0, 4.0]]), beta=2)
res["addmv"] = torch.addmv(torch.ones(2), torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([1.0, -1.0]))
res["chain"] = torch.linalg.multi_dot([torch.ones(2, 3), torch.ones(3, 4), torch.ones(4, 1)])
res["mpow"] = torch.linalg.matrix_power(torch.tensor([[1.0, 1.0], [0.0, 1.0]]), 5)
res["trace"] = [torch.trace(torch.arange(9.0).view(3, 3)), torch.diagonal(a, offset=1, dim1=1, dim2=2), torch.diag_embed(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))]
res["ein"] = [torch.einsum("bij,jk->bik", a[:, :, :3], torch.ones(3, 2)), torch.einsum("ii->i", torch.arange(4.0).view(2, 2)), torch.einsum("i,j->ij", torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])), torch.einsum("...ij->...ji", a).shape, torch.einsum("bhqd,bhkd->bhqk", torch.ones(1, 2, 3, 4), torch.ones(1, 2, 5, 4)).shape]
res["vdot"] = [torch.vdot(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])), torch.inner(torch.ones(2, 3), torch.ones(4, 3)).shape, torch.ger(torch.tensor([1.0, 2.0]), torch.tensor([3.0]))]
res["cumtrap"] = [torch.trapezoid(torch.tensor([1.0, 2.0, 4.0])), torch.cumulative_trapezoid(torch.tensor([1.0, 2.0, 4.0]), dx=0.5)]
report(**res)
