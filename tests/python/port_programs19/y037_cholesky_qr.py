import torch
A = torch.tensor([[4.0, 2.0, 0.6], [2.0, 5.0, 1.0], [0.6, 1.0, 3.0]])
L = torch.linalg.cholesky(A)
U = torch.linalg.cholesky(A, upper=True)
M = data(4, 3)
Q, R = torch.linalg.qr(M)
Qc, Rc = torch.linalg.qr(M, mode="complete")
report(L=L, U=U, recon=L @ L.T, ch_s=torch.cholesky_solve(torch.eye(3), L), QR=Q @ R, Rabs=R.abs(), Qcshape=Qc.shape, orth=Qc.T @ Qc,
       ci=torch.cholesky_inverse(L))
