import torch

x = torch.tensor([0.2, 0.7, 1.5, 3.0], requires_grad=True)
y = (torch.special.erf(x) + torch.special.gammaln(x) + torch.special.digamma(x) + torch.special.xlogy(x, x + 1)
     + torch.special.i0(x) + torch.special.log_ndtr(x) + torch.special.erfcx(x) + torch.special.logit(x / 4) + torch.special.sinc(x)).sum()
y.backward()
p = torch.tensor([0.1, 0.5, 0.9], requires_grad=True)
torch.special.erfinv(2 * p - 1).sum().backward()
report(y=y.item(), g=x.grad, gp=p.grad, erfcx=torch.special.erfcx(torch.tensor([-1.0, 0.0, 10.0])), log1mexp=torch.log1p(-torch.exp(-torch.tensor([0.1, 5.0]))),
       spherical=torch.special.spherical_bessel_j0(torch.tensor([0.0, 1.0, 3.0])),
       softplus=torch.nn.functional.softplus(torch.tensor([-20.0, 0.0, 30.0]), beta=2.0, threshold=10.0))
