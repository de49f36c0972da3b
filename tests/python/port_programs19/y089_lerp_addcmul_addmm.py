import torch
a = torch.tensor([1.0, 2.0])
b = torch.tensor([3.0, 6.0])
M = torch.ones(2, 2)
report(l=torch.lerp(a, b, 0.25), lt=torch.lerp(a, b, torch.tensor([0.0, 2.0])), acm=torch.addcmul(a, a, b, value=0.5), acd=torch.addcdiv(a, a, b, value=-2),
       amm=torch.addmm(M, M, M, beta=0.5, alpha=2), amv=torch.addmv(a, M, b, beta=0), bad=torch.baddbmm(torch.zeros(1, 2, 2), M[None], M[None], alpha=3).squeeze(0),
       ar=torch.addr(M, a, b), lae=torch.logaddexp(a, b), lae2=torch.logaddexp2(a, b), hyp=torch.hypot(a, b))
