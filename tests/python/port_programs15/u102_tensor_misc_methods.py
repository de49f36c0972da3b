import torch

x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])
r = {}
r["addcmul"] = torch.addcmul(x, x, x, value=0.5)
r["addcdiv"] = torch.addcdiv(x, x, x.abs() + 1, value=2)
r["lerp"] = torch.lerp(x, torch.zeros_like(x), 0.25)
r["lerp_t"] = x.lerp(torch.ones_like(x), torch.tensor([0.0, 0.5, 1.0]))
r["clip"] = x.clip(-1, 1)
r["baddbmm"] = torch.baddbmm(torch.ones(1, 2, 2), x.unsqueeze(0), x.t().unsqueeze(0), beta=0.5, alpha=2)
r["addmm"] = torch.addmm(torch.zeros(2, 2), x, x.t(), beta=0.5)
r["outer"] = torch.outer(x[0], x[1])
r["trace"] = torch.trace(x[:, :2])
r["tril"] = torch.tril(torch.ones(3, 3), diagonal=-1)
r["triu_neg"] = torch.triu(torch.ones(2, 3), diagonal=1)
r["histc"] = torch.histc(x, bins=4, min=-2, max=4)
r["bincount_w"] = torch.bincount(torch.tensor([0, 2, 2, 3]), weights=torch.tensor([0.5, 1.0, 1.5, 2.0]))
r["cumsum_dtype"] = torch.cumsum(torch.tensor([1, 2, 3], dtype=torch.int8), 0, dtype=torch.int64).dtype
r["renorm"] = torch.renorm(x, p=2, dim=0, maxnorm=1.0)
r["std_unbiased"] = x.std(dim=1, unbiased=False)
r["var_keep"] = x.var(0, keepdim=True)
r["pdist"] = torch.pdist(x)
r["cdist_p1"] = torch.cdist(x, x, p=1)
r["logcumsumexp"] = torch.logcumsumexp(x[0], 0)
r["float_power"] = torch.float_power(torch.tensor([2]), 3)
r["true_divide"] = torch.true_divide(torch.tensor([5]), 2)
r["sub_alpha"] = torch.sub(x, 1, alpha=2)
r["rsub"] = torch.rsub(x, 1)
r["positive"] = torch.positive(x)[0]
r["exp2"] = torch.exp2(torch.tensor([3.0]))
r["signbit"] = torch.signbit(torch.tensor([-0.0, 0.0, -1.0]))
r["nan_mean_dim"] = torch.tensor([[1.0, float("nan")], [3.0, 4.0]]).nanmean(dim=1)
r["amax_multi"] = x.amax(dim=(0, 1))
r["flatten_single"] = torch.tensor(5.0).flatten().shape
r["item_int"] = torch.tensor([7]).item()
r["to_list_nested"] = x.int().tolist()
r["chunk_view"] = x.view(-1).chunk(3)[1]
report(**r)
