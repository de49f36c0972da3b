import torch

a = data(2, 5, 3)
b = data(2, 4, 3, seed=2)
d_mm = torch.cdist(a, b, compute_mode="use_mm_for_euclid_dist")
d_no = torch.cdist(a, b, compute_mode="donot_use_mm_for_euclid_dist")
d0 = torch.cdist(a, b, p=0)
dh = torch.cdist(a, b, p=0.5)
a.requires_grad_()
torch.cdist(a, b).sum().backward()
sq = (a.detach()[:, :, None] - b[:, None]).pow(2).sum(-1)
report(close=torch.allclose(d_mm, d_no, atol=1e-5), d=d_no[1, 2], d0=d0[0, 0], dh=dh[0, 1], g=a.grad[0, 0], sq=torch.allclose(sq.sqrt(), d_no, atol=1e-5),
       self=torch.cdist(a.detach()[0], a.detach()[0]).diagonal())
