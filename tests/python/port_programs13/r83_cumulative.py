import torch
x = torch.tensor([[1.0, 3.0, 2.0, 5.0], [4.0, 1.0, 0.5, 2.0]])
res = {"cumprod": torch.cumprod(x, 1), "cummax": list(torch.cummax(x, dim=1)), "cummin": list(x.cummin(0)), "lcse": torch.logcumsumexp(x, 1),
       "diff": torch.diff(x, dim=1), "diff2": torch.diff(x, n=2), "diff_pre": torch.diff(x[0], prepend=torch.tensor([0.0])), "trapz": torch.trapezoid(x, dx=0.5),
       "trapz_x": torch.trapezoid(x[0], x=torch.tensor([0.0, 1.0, 3.0, 4.0])), "ctrapz": torch.cumulative_trapezoid(x[0]), "cumsum_int": torch.tensor([1, 2, 3]).cumsum(0),
       "cumsum_dt": torch.tensor([1, 2], dtype=torch.int32).cumsum(0).dtype, "prod_dim": x.prod(1), "rev_cumsum": x.flip(1).cumsum(1).flip(1),
       "cumsum_dtype": x.cumsum(1, dtype=torch.float64), "gradient": torch.gradient(x[0])[0], "grad_sp": torch.gradient(x, spacing=2.0, dim=1)[0]}
x2 = x.clone().requires_grad_()
torch.cumprod(x2, 1).sum().backward()
res["g_cumprod"] = x2.grad
x3 = x.clone().requires_grad_()
torch.logcumsumexp(x3, 0).sum().backward()
res["g_lcse"] = x3.grad
x4 = x.clone().requires_grad_()
x4.cummax(1).values.sum().backward()
res["g_cummax"] = x4.grad
report(**res)
