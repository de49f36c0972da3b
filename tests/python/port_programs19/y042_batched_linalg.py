import torch
A = torch.stack([torch.eye(3) * (i + 1) + 0.1 * data(3, 3, seed=i) for i in range(4)])
A = A @ A.transpose(-1, -2)
b = data(4, 3, 2, seed=9)
report(det=torch.linalg.det(A), solve=torch.linalg.solve(A, b), inv_check=(torch.linalg.inv(A) @ A), chol=torch.linalg.cholesky(A)[1],
       eig=torch.linalg.eigvalsh(A), slog=torch.linalg.slogdet(A).logabsdet)
