import torch

M = data(4, 4)
S = M @ M.T + torch.eye(4)
L = torch.linalg.cholesky(S)
U = torch.linalg.cholesky(S, upper=True)
Q, R = torch.linalg.qr(M)
signs = torch.sign(torch.diagonal(R))
Q, R = Q * signs, R * signs.unsqueeze(1)
Qr, Rr = torch.linalg.qr(data(5, 3), mode="reduced")
Lc, info = torch.linalg.cholesky_ex(-S)
v = torch.tensor([3.0, -4.0, 12.0])
res = dict(L=L, U_ok=torch.allclose(U, L.T), Q=Q, R=R, Qr_shape=Qr.shape, orth=torch.allclose(Qr.T @ Qr, torch.eye(3), atol=1e-5), info=info.item(),
           fro=torch.linalg.norm(M).item(), nuc=torch.linalg.matrix_norm(M, ord="nuc").item(), two=torch.linalg.matrix_norm(M, ord=2).item(),
           inf=torch.linalg.matrix_norm(M, ord=float("inf")).item(), one=torch.linalg.norm(M, ord=1).item(),
           v2=torch.linalg.vector_norm(v).item(), v1=torch.linalg.vector_norm(v, ord=1).item(), vinf=torch.linalg.vector_norm(v, ord=float("inf")).item(),
           v0=torch.linalg.vector_norm(torch.tensor([0.0, 1.0, 2.0]), ord=0).item(), vneg=torch.linalg.vector_norm(v, ord=-1).item(),
           old=torch.norm(M, dim=1), old_p=torch.norm(v, p=3).item(), cinv=torch.cholesky_inverse(L)[0], csolve=torch.cholesky_solve(torch.ones(4, 1), L).squeeze(),
           matpow=torch.linalg.matrix_power(S, -1)[0], mexp=torch.linalg.matrix_exp(torch.tensor([[0.0, 1.0], [-1.0, 0.0]])))
report(**res)
