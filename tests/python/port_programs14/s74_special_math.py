import torch

x = torch.tensor([0.1, 0.5, 1.5, 3.0])
y = torch.tensor([-1.0, 0.0, 2.0, -0.5])
out = {
    "erf": torch.erf(x), "erfc": torch.erfc(x), "erfinv": torch.erfinv(x / 4), "lgamma": torch.lgamma(x), "digamma": torch.digamma(x),
    "xlogy": torch.xlogy(y, x), "logit": torch.logit(x / 4, eps=1e-6), "sinc": torch.sinc(y), "hypot": torch.hypot(x, y),
    "atan2": torch.atan2(y, x), "copysign": torch.copysign(x, y), "expm1": torch.expm1(x), "log1p": torch.log1p(x), "sigmoid": torch.special.expit(y),
    "i0": torch.special.i0(x), "ndtr": torch.special.ndtr(y), "ndtri": torch.special.ndtri(x / 4), "entr": torch.special.entr(x / 4),
    "logaddexp": torch.logaddexp(x, y), "polygamma": torch.polygamma(1, x), "trunc": torch.trunc(y * 1.7), "frac": torch.frac(y * 1.7),
    "round_dec": torch.round(x * 1.2345, decimals=2), "round_half": torch.round(torch.tensor([0.5, 1.5, 2.5, -0.5])), "sgn": torch.sign(y),
    "clamp_t": torch.clamp(y, min=torch.tensor([-0.5, 0.0, 0.0, 0.0]), max=torch.tensor(1.0)), "deg": torch.rad2deg(x), "nan_to_num": torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -1.0]), posinf=9.0),
    "float_power": torch.float_power(torch.tensor([2, 3]), 2), "rsqrt": torch.rsqrt(x), "logsig": torch.nn.functional.logsigmoid(y),
    "mvlgamma": torch.mvlgamma(x + 2, p=2), "gammaln": torch.special.gammaln(x), "softplus": torch.nn.functional.softplus(y, beta=3),
}
report(**out)
