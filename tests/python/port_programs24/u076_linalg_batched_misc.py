import torch

B = data(3, 2, 2) + 2 * torch.eye(2)
inv = torch.linalg.inv(B)
det = torch.linalg.det(B)
ex_inv, info = torch.linalg.inv_ex(torch.zeros(2, 2))
cross = torch.linalg.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0]))
md = torch.linalg.multi_dot([data(2, 3), data(3, 4, seed=2), data(4, 1, seed=3)])
hh = torch.linalg.householder_product(*torch.geqrf(data(3, 3)))
vander = torch.linalg.vander(torch.tensor([1.0, 2.0, 3.0]))
diag = torch.linalg.diagonal(B)
tri = torch.linalg.solve_triangular(torch.tensor([[2.0, 0.0], [1.0, 1.0]]), torch.tensor([[2.0], [3.0]]), upper=False)
kron = torch.kron(torch.eye(2), torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
tensordot = torch.tensordot(data(2, 3, 4), data(3, 4, 2, seed=5), dims=([1, 2], [0, 1]))
report(inv=inv[0], det=det, info=info.item(), cross=cross, md=md, vander=vander, diag=diag, tri=tri, kron=kron, tensordot=tensordot,
       hh_orth=torch.allclose(hh.T @ hh, torch.eye(3), atol=1e-5), bmm=torch.bmm(B, inv).round())
