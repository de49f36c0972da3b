import torch

X = data(20, 4, seed=1).double()
y = X @ torch.tensor([1.0, -2.0, 0.5, 3.0], dtype=torch.float64) + 0.1 * data(20, seed=2).double()
lam = 0.5
A = X.T @ X + lam * torch.eye(4, dtype=torch.float64)
L = torch.linalg.cholesky(A)
w1 = torch.cholesky_solve((X.T @ y)[:, None], L).squeeze(1)
w2 = torch.linalg.solve(A, X.T @ y)
Q, R = torch.linalg.qr(X)
w3 = torch.linalg.solve_triangular(R, (Q.T @ y)[:, None], upper=True).squeeze(1)
U, S, Vh = torch.linalg.svd(X, full_matrices=False)
ev = torch.linalg.eigvalsh(A)
report(w1=w1, eq=torch.allclose(w1, w2), w3=w3, S=S, ev=ev, det=torch.linalg.det(A), sld=torch.linalg.slogdet(A), cond=torch.linalg.cond(A),
       pinv=torch.linalg.pinv(X)[0, :3], rank=torch.linalg.matrix_rank(X))
