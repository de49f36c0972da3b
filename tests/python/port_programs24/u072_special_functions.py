import torch

x = torch.tensor([0.1, 0.5, 1.0, 2.5, 5.0])
res = {
    "erf": torch.special.erf(x), "erfc": torch.special.erfc(x), "erfinv": torch.special.erfinv(torch.tensor([-0.5, 0.0, 0.9])),
    "expit": torch.special.expit(x - 1), "logit": torch.special.logit(torch.tensor([0.1, 0.5, 0.99])),
    "logit_eps": torch.special.logit(torch.tensor([0.0, 1.0]), eps=1e-6),
    "xlogy": torch.special.xlogy(torch.tensor([0.0, 1.0, 2.0]), torch.tensor([0.0, 3.0, 0.5])),
    "xlog1py": torch.special.xlog1py(torch.tensor([0.0, 2.0]), torch.tensor([-1.0, 1.0])),
    "gammaln": torch.special.gammaln(x), "digamma": torch.special.digamma(x), "polygamma1": torch.special.polygamma(1, x),
    "multigammaln": torch.special.multigammaln(torch.tensor([2.5, 3.0]), 2),
    "i0": torch.special.i0(x), "i0e": torch.special.i0e(x), "i1": torch.special.i1(x), "i1e": torch.special.i1e(x),
    "ndtr": torch.special.ndtr(torch.tensor([-1.0, 0.0, 1.96])), "ndtri": torch.special.ndtri(torch.tensor([0.025, 0.5, 0.975])),
    "log_ndtr": torch.special.log_ndtr(torch.tensor([-10.0, 0.0, 3.0])),
    "sinc": torch.special.sinc(torch.tensor([0.0, 0.5, 1.0])), "entr": torch.special.entr(torch.tensor([0.0, 0.5, 1.0, -1.0])),
    "log1p": torch.special.log1p(torch.tensor([1e-8, 1.0])), "expm1": torch.special.expm1(torch.tensor([1e-8, 1.0])),
    "exp2": torch.special.exp2(torch.tensor([3.0, -1.0])), "round": torch.special.round(torch.tensor([0.5, 1.5, 2.5, -0.5])),
    "softmax": torch.special.softmax(torch.tensor([1.0, 2.0, 3.0]), dim=0), "lse": torch.special.logsumexp(x, 0),
    "zeta": torch.special.zeta(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 2.0])), "bessel_j0": torch.special.bessel_j0(x),
    "gammainc": torch.special.gammainc(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0])),
    "gammaincc": torch.special.gammaincc(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0])),
}
report(**res)
