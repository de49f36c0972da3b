import torch

edges = torch.tensor([[0, 1], [1, 2], [2, 3], [3, 0], [0, 2], [3, 4]])
N = 5
A = torch.zeros(N, N)
A[edges[:, 0], edges[:, 1]] = 1
A = A + A.T
deg = A.sum(1)
D_inv_sqrt = torch.diag(deg.pow(-0.5))
L = torch.eye(N) - D_inv_sqrt @ A @ D_inv_sqrt
evals, evecs = torch.linalg.eigh(L)
pe = evecs[:, [1, 4]]
pe = pe * torch.sign(pe[0:1])
A_hat = A + torch.eye(N)
d = A_hat.sum(1)
norm = A_hat / torch.sqrt(d[:, None] * d[None, :])
x = data(N, 3)
two_hop = torch.linalg.matrix_power(norm, 2) @ x
report(evals=evals, pe=pe, sym=torch.allclose(L, L.T), two_hop=two_hop, trace=torch.trace(L).item())
