import torch
import torch.nn.functional as F
a, b = data(4, 5), data(3, 5, seed=3)
cos = F.cosine_similarity(a.unsqueeze(1), b.unsqueeze(0), dim=-1)
cos2 = F.normalize(a, dim=1) @ F.normalize(b, dim=1).T
d1 = torch.cdist(a, b, p=1)
dinf = torch.cdist(a, b, p=float("inf"))
d0 = torch.cdist(a, b, p=0)
sq = (a.unsqueeze(1) - b.unsqueeze(0)).pow(2).sum(-1)
mm = a.pow(2).sum(1, keepdim=True) - 2 * a @ b.T + b.pow(2).sum(1)
nrm = F.normalize(torch.zeros(2, 3), dim=1)
ac = a.clone().requires_grad_()
torch.cdist(ac, b).sum().backward()
report(cos=cos, same=torch.allclose(cos, cos2, atol=1e-6), d1=d1[0], dinf=dinf[1], d0=d0[2], mm=torch.allclose(sq, mm, atol=1e-4), nrm=nrm, g=ac.grad[0], cs_eps=F.cosine_similarity(torch.zeros(1, 2), torch.ones(1, 2)))
