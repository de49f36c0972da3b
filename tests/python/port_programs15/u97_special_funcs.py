import torch

x = torch.tensor([0.1, 0.5, 1.0, 2.5, 5.0])
r = {}
r["lgamma"] = torch.lgamma(x)
r["digamma"] = torch.digamma(x)
r["polygamma1"] = torch.polygamma(1, x)
r["erfinv"] = torch.erfinv(torch.tensor([-0.5, 0.0, 0.9]))
r["logit"] = torch.logit(torch.tensor([0.1, 0.5, 0.9]), eps=1e-6)
r["xlogy"] = torch.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0]))
r["sinc"] = torch.sinc(torch.tensor([0.0, 0.5, 1.0]))
r["i0"] = torch.i0(x)
r["expit"] = torch.special.expit(torch.tensor([-1.0, 0.0, 1.0]))
r["ndtr"] = torch.special.ndtr(torch.tensor([-1.0, 0.0, 1.96]))
r["ndtri"] = torch.special.ndtri(torch.tensor([0.025, 0.5]))
r["log_ndtr"] = torch.special.log_ndtr(torch.tensor([-3.0, 0.0]))
r["entr"] = torch.special.entr(torch.tensor([0.0, 0.5, 1.0, -1.0]))
r["softmax"] = torch.special.softmax(torch.tensor([1.0, 2.0]), 0)
r["erfcx"] = torch.special.erfcx(torch.tensor([0.5, 2.0]))
r["bessel_j0"] = torch.special.bessel_j0(torch.tensor([0.0, 1.0, 2.5]))
r["zeta"] = torch.special.zeta(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 2.0]))
r["multigammaln"] = torch.special.multigammaln(torch.tensor([2.5, 3.0]), 2)
r["gammainc"] = torch.special.gammainc(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0]))
r["log1p_exp"] = torch.nn.functional.softplus(torch.tensor([-30.0, 0.0, 30.0]))
r["logaddexp"] = torch.logaddexp(torch.tensor([1.0, -100.0]), torch.tensor([2.0, -100.0]))
r["hypot"] = torch.hypot(torch.tensor([3.0]), torch.tensor([4.0]))
r["frexp"] = [t.tolist() for t in torch.frexp(torch.tensor([8.0, 0.3]))]
r["ldexp"] = torch.ldexp(torch.tensor([1.0]), torch.tensor([3]))
r["gcd_lcm"] = [torch.gcd(torch.tensor([12, 18]), torch.tensor([8, 27])).tolist(), torch.lcm(torch.tensor([4]), torch.tensor([6])).tolist()]
r["deg"] = torch.rad2deg(torch.tensor([3.14159265]))
r["nextafter"] = (torch.nextafter(torch.tensor([1.0]), torch.tensor([2.0])) - 1).item() > 0
report(**r)
