import torch

x = torch.tensor([0.1, 0.5, 1.0, 2.5, 7.0])
report(
    gammaln=torch.special.gammaln(x), digamma=torch.special.digamma(x), polygamma=torch.special.polygamma(1, x),
    erfcx=torch.special.erfcx(x), i0e=torch.special.i0e(x), i1=torch.special.i1(x), ndtr=torch.special.ndtr(x - 1),
    ndtri=torch.special.ndtri(torch.tensor([0.1, 0.5, 0.9])), log_ndtr=torch.special.log_ndtr(-x), expit=torch.special.expit(x),
    logit=torch.special.logit(torch.tensor([0.2, 0.7])), xlog1py=torch.special.xlog1py(x, x), entr=torch.special.entr(torch.tensor([0.0, 0.5, 1.0, -1.0])),
    sinc=torch.special.sinc(x), softmax=torch.special.softmax(x, 0), log1p=torch.special.log1p(x), round=torch.special.round(x * 3),
    zeta=torch.special.zeta(x + 1.5, torch.tensor(1.0)), multigammaln=torch.special.multigammaln(x + 2, 2), bessel_j0=torch.special.bessel_j0(x),
    lgamma_neg=torch.lgamma(torch.tensor([-0.5, -1.5])), mvlgamma=torch.mvlgamma(x + 2, 3),
)
