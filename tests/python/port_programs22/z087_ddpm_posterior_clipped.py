import torch

T = 12
betas = torch.linspace(1e-4, 0.2, T, dtype=torch.float64)
alphas = 1.0 - betas
ac = torch.cumprod(alphas, dim=0)
ac_prev = torch.cat([torch.tensor([1.0], dtype=torch.float64), ac[:-1]])
post_var = betas * (1.0 - ac_prev) / (1.0 - ac)
post_log_var_clipped = torch.log(torch.cat([post_var[1:2], post_var[1:]]))
coef1 = betas * torch.sqrt(ac_prev) / (1.0 - ac)
coef2 = (1.0 - ac_prev) * torch.sqrt(alphas) / (1.0 - ac)
sqrt_recip = torch.sqrt(1.0 / ac)
sqrt_recipm1 = torch.sqrt(1.0 / ac - 1)
xt = data(2, 3, seed=120).double()
eps = data(2, 3, seed=121).double()
t = torch.tensor([0, 7])
x0 = (sqrt_recip[t, None] * xt - sqrt_recipm1[t, None] * eps).clamp(-1, 1)
mean = coef1[t, None] * x0 + coef2[t, None] * xt
report(plv=post_log_var_clipped.float(), c1=coef1[::3], c2=coef2[::3], x0=x0, mean=mean, dtype=mean.dtype)
