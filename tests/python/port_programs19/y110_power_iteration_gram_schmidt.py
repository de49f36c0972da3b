import torch
A = torch.tensor([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]], dtype=torch.float64)
v = torch.ones(3, dtype=torch.float64)
for _ in range(200):
    v = A @ v
    v = v / v.norm()
lam = v @ A @ v
V = torch.tensor([[1.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0]], dtype=torch.float64)
Q = torch.zeros_like(V)
for j in range(3):
    q = V[:, j].clone()
    for k in range(j):
        q -= (Q[:, k] @ V[:, j]) * Q[:, k]
    Q[:, j] = q / q.norm()
report(lam=lam, top=torch.linalg.eigvalsh(A)[-1], v=v.abs(), QtQ=Q.T @ Q, Q=Q)
