import torch
x = data(20, 4, seed=8) @ torch.tensor([[2.0, 0.0, 0.0, 0.0], [0.5, 1.0, 0.0, 0.0], [0.0, 0.0, 0.3, 0.0], [0.0, 0.0, 0.0, 0.1]])
xc = x - x.mean(0)
U, S, Vh = torch.linalg.svd(xc, full_matrices=False)
signs = torch.sign(Vh[:, 0:1])
Vh = Vh * signs
ev = S ** 2 / (x.shape[0] - 1)
proj = xc @ Vh[:2].T
report(ev=ev, ratio=ev / ev.sum(), Vh=Vh[:2], proj=proj[:3], cov_ev=torch.linalg.eigvalsh(torch.cov(xc.T)).flip(0))
