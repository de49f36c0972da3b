import torch
A = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
B = torch.arange(6.0).view(2, 3)
report(mp=torch.linalg.matrix_power(A, 3), mpn=torch.linalg.matrix_power(A, -1), me=torch.linalg.matrix_exp(torch.tensor([[0.0, 1.0], [-1.0, 0.0]])),
       cross=torch.linalg.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0])), md=torch.linalg.multi_dot([A, A, B]),
       vd=torch.linalg.vecdot(B, B), tr=torch.trace(A), diag=torch.linalg.diagonal(B), outer=torch.outer(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])),
       tri=torch.linalg.solve_triangular(torch.tensor([[2.0, 0.0], [1.0, 1.0]]), torch.tensor([[2.0], [3.0]]), upper=False))
