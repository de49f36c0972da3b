import torch

A = data(4, 4, seed=3) + 4 * torch.eye(4)
b = data(4, 2, seed=4)
spd = A @ A.T + torch.eye(4)
x = torch.linalg.solve(A, b)
L = torch.linalg.cholesky(spd)
Q, R = torch.linalg.qr(A)
U, S, Vh = torch.linalg.svd(A, full_matrices=False)
w, V = torch.linalg.eigh(spd)
sol = torch.linalg.lstsq(data(6, 3, seed=5), data(6, 1, seed=6)).solution
report(x=x, res=(A @ x - b).abs().max().item() < 1e-4, inv=torch.linalg.inv(A)[0], det=torch.linalg.det(A), slog=torch.linalg.slogdet(A),
       L=L.diag(), chol_ok=torch.allclose(L @ L.T, spd, atol=1e-4), Rdiag=R.diag().abs(), S=S, w=w, lst=sol,
       pinv=torch.linalg.pinv(data(3, 2, seed=7)), mrank=torch.linalg.matrix_rank(torch.ones(3, 3)), cond=torch.linalg.cond(A),
       cholsolve=torch.cholesky_solve(b, L), tri=torch.linalg.solve_triangular(L, b, upper=False), vnorm=torch.linalg.vector_norm(b, ord=3, dim=0),
       mexp=torch.linalg.matrix_exp(0.1 * A)[0], mpow=torch.linalg.matrix_power(A, 2)[1], cross=torch.linalg.cross(b[:3].T, b[1:].T))
