import torch
x = torch.tensor([0.1, 0.5, 1.0, 2.5])
report(lg=torch.lgamma(x), dg=torch.digamma(x), pg=torch.polygamma(1, x), erfv=torch.erf(x), erfinv=torch.erfinv(torch.tensor([0.0, 0.5, -0.9])), i0=torch.i0(x),
       sinc=torch.sinc(x), logit=torch.logit(torch.tensor([0.25, 0.5]), eps=1e-6), expit=torch.special.expit(x), entr=torch.special.entr(x), ndtr=torch.special.ndtr(x),
       ndtri=torch.special.ndtri(torch.tensor([0.1, 0.5])), lndtr=torch.special.log_ndtr(x), xl=torch.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0])),
       x1p=torch.special.xlog1py(torch.tensor([2.0]), torch.tensor([1.0])), i1=torch.special.i1(x), gl=torch.special.gammaln(x), mvl=torch.mvlgamma(torch.tensor([2.5]), 2))
