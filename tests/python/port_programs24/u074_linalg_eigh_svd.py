import torch

M = data(5, 5)
S = M @ M.T
w, V = torch.linalg.eigh(S)
recon = V @ torch.diag(w) @ V.T
U, s, Vh = torch.linalg.svd(M[:, :3], full_matrices=False)
# sign-invariant comparisons
proj = U @ U.T
sv = torch.linalg.svdvals(M)
r = torch.linalg.matrix_rank(M[:, :3] @ M[:3, :])
eigvals = torch.linalg.eigvalsh(S)
ev = torch.linalg.eigvals(torch.tensor([[2.0, 1.0], [1.0, 2.0]]))
cond = torch.linalg.cond(S)
# PCA by hand
Xc = data(20, 3) @ torch.tensor([[2.0, 0.0, 0.0], [0.5, 1.0, 0.0], [0.0, 0.0, 0.1]])
Xc = Xc - Xc.mean(0)
_, sp, Vp = torch.linalg.svd(Xc, full_matrices=False)
expl = sp ** 2 / (sp ** 2).sum()
lowrank = torch.pca_lowrank(Xc, q=2, center=False)[1] if False else None
report(w=w, recon_ok=torch.allclose(recon, S, atol=1e-4), s=s, proj_diag=proj.diagonal(), sv=sv, rank=r.item(), eigvals=eigvals,
       ev=ev.real.sort().values, ev_dtype=ev.dtype, cond=cond.item(), expl=expl, abs_v0=Vp[0].abs())
