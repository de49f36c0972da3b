import torch
x = torch.tensor([0.1, 0.5, 0.9]); y = torch.tensor([-2.0, 0.0, 3.0])
S = torch.special
res = {"a": [S.erf(y), S.erfc(y), S.erfinv(x), S.logit(x), S.logit(x, eps=0.2), S.expit(y), S.xlogy(x, x), S.xlog1py(x, y.abs()), S.gammaln(x + 1), S.digamma(x + 1), S.polygamma(1, x + 1)],
       "b": [S.i0(y), S.i0e(y), S.i1(y), S.sinc(y), S.log_ndtr(y), S.ndtr(y), S.ndtri(x), S.entr(x), S.logsumexp(y, 0), S.softmax(y, 0), S.log_softmax(y, 0), S.round(torch.tensor([2.5])), S.exp2(y), S.expm1(y), S.log1p(x)],
       "c": [torch.lgamma(x), torch.mvlgamma(torch.tensor([2.5, 3.0]), p=2), torch.erfinv(x), torch.logit(x), torch.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0])), torch.sinc(torch.tensor([0.0])), torch.hypot(x, x), torch.logaddexp(x, y), torch.logaddexp2(x, y), torch.deg2rad(torch.tensor([180.0])), torch.rad2deg(torch.tensor([3.14159265])), torch.float_power(torch.tensor([2]), 0.5), torch.igamma(torch.tensor([1.0]), torch.tensor([2.0])), torch.igammac(torch.tensor([1.0]), torch.tensor([2.0]))],
       "d": [torch.nextafter(torch.tensor([1.0]), torch.tensor([2.0])) > 1.0, torch.ldexp(torch.tensor([1.0]), torch.tensor([3])), torch.frexp(torch.tensor([8.0])).mantissa, torch.gcd(torch.tensor([12, 18]), torch.tensor([8, 27])), torch.lcm(torch.tensor([4]), torch.tensor([6])), torch.clamp_min(y, 0), torch.positive(y), torch.square(y), torch.rsqrt(x), torch.reciprocal(x), torch.asinh(y), torch.atanh(x * 0.5), torch.cosh(y), torch.logdet(torch.eye(2) * 2)]}
xr = x.clone().requires_grad_()
(S.erfinv(xr).sum() + torch.lgamma(xr).sum() + S.logit(xr).sum() + S.xlogy(xr, xr).sum()).backward()
res["g"] = xr.grad
report(**res)
