import torch

M = torch.tensor([[4.0, 100.0, 0.0], [1.0, 3.0, 5.0], [0.0, 1.0, 2.0]])
wl = torch.linalg.eigvalsh(M)
wu = torch.linalg.eigvalsh(M, UPLO="U")
W = data(2, 5)
U, S, Vh = torch.linalg.svd(W, full_matrices=True)
Ur, Sr, Vhr = torch.linalg.svd(W, full_matrices=False)
R = torch.linalg.qr(data(4, 3), mode="r")
Qc, Rc = torch.linalg.qr(data(4, 3), mode="complete")
report(wl=wl, wu=wu, U_shape=U.shape, Vh_shape=Vh.shape, S=S, recon=torch.allclose(Ur @ torch.diag(Sr) @ Vhr, W, atol=1e-5), R_abs_diag=R[1].diagonal().abs(),
       R0_numel=R[0].numel(), Qc_shape=Qc.shape, Rc_bottom=Rc[3], orth=torch.allclose(Vh @ Vh.T, torch.eye(5), atol=1e-5))
