import torch
X = data(20, 5) @ data(5, 5, seed=3)
Xc = X - X.mean(dim=0)
U, S, Vh = torch.linalg.svd(Xc, full_matrices=False)
explained = S ** 2 / (S ** 2).sum()
proj = Xc @ Vh[:2].T
C = torch.cov(Xc.T)
evals, evecs = torch.linalg.eigh(C)
recon = U[:, :2] @ torch.diag(S[:2]) @ Vh[:2]
sign = torch.sign(Vh[:2, 0:1])
U2, S2, V2 = torch.svd(Xc)
q, r = torch.linalg.qr(Xc)
report(S=S, explained=explained, evals=evals.flip(0), absproj=proj.abs()[:3], err=(Xc - recon).norm(), svd_old=S2, vshape=list(V2.shape),
       qr=r.diagonal().abs(), rank=torch.linalg.matrix_rank(Xc), cond=torch.linalg.cond(C), pinv=(torch.linalg.pinv(Xc) @ Xc).diagonal(), evr=(sign * Vh[:2]).abs()[:, :2])
# TOL 1e-3
