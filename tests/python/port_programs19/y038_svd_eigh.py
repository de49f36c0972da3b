import torch
M = data(4, 3, seed=3)
U, S, Vh = torch.linalg.svd(M, full_matrices=False)
S2 = torch.linalg.svdvals(M)
A = M.T @ M
w, V = torch.linalg.eigh(A)
recon = U @ torch.diag(S) @ Vh
report(S=S, S2=S2, recon=recon, w=w, Vabs=V.abs(), ev=torch.linalg.eigvalsh(A), Ushape=torch.linalg.svd(M).U.shape,
       lowrank=(torch.linalg.eigh(A, UPLO="U").eigenvalues))
