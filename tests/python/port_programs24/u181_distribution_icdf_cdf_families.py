import torch
from torch.distributions import Normal, Laplace, Uniform, Exponential, Cauchy, Gumbel, HalfNormal

q = torch.tensor([0.1, 0.5, 0.9])
res = {}
for name, d in {"normal": Normal(1.0, 2.0), "laplace": Laplace(0.0, 1.5), "uniform": Uniform(-1.0, 3.0), "exp": Exponential(torch.tensor(2.0)),
                "cauchy": Cauchy(0.0, 1.0), "halfnormal": HalfNormal(1.0)}.items():
    x = d.icdf(q)
    res[name] = [x, d.cdf(x)]
res["gumbel_cdf"] = Gumbel(0.0, 1.0).cdf(torch.tensor([0.0, 1.0]))
report(**res)
