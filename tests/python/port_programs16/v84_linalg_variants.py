import torch

A = torch.tensor([[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]], dtype=torch.float64)
B = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=torch.float64)
v = torch.tensor([3.0, -4.0, 12.0], dtype=torch.float64)
sign, logabs = torch.linalg.slogdet(A)
ls = torch.linalg.lstsq(B, torch.tensor([[1.0], [2.0], [2.0]], dtype=torch.float64))
report(
    fro=torch.linalg.norm(A), nuc=torch.linalg.matrix_norm(A, ord="nuc"), ord2=torch.linalg.matrix_norm(A, ord=2), ord1=torch.linalg.norm(A, ord=1),
    ordinf=torch.linalg.norm(A, ord=float("inf")), vn=torch.linalg.vector_norm(v, ord=3), vn0=torch.linalg.vector_norm(v, ord=0),
    vninf=torch.linalg.vector_norm(v, ord=float("-inf")), mp=torch.linalg.matrix_power(A, 3)[0], mpinv=torch.linalg.matrix_power(A, -1)[1],
    cross=torch.linalg.cross(v, torch.tensor([1.0, 0.0, 0.0], dtype=torch.float64)), det=torch.det(A), sign=sign, logabs=logabs,
    pinv=torch.linalg.pinv(B), lstsq=ls.solution.squeeze(), rank=torch.linalg.matrix_rank(B), cond=torch.linalg.cond(A),
    chol=torch.linalg.cholesky(A)[2], inv_ex=torch.linalg.inv_ex(A).info, svdvals=torch.linalg.svdvals(B), multi=torch.linalg.multi_dot([B.T, A, B]),
    tnorm=torch.norm(B, dim=0), tnorm_p=torch.norm(B, p=1), dist=torch.dist(A[0], A[1], p=2), vecdot=torch.linalg.vecdot(B.T, B.T),
    householder=torch.linalg.eigvalsh(A), solve_tri=torch.linalg.solve_triangular(torch.linalg.cholesky(A), B, upper=False)[0],
)
