import torch
x = data(3, 4)
r = {}
r["addmm"] = torch.addmm(torch.ones(3, 2), x, data(4, 2, seed=3), beta=0.5, alpha=2)
r["baddbmm"] = torch.baddbmm(torch.zeros(2, 3, 3), data(2, 3, 4, seed=4), data(2, 4, 3, seed=5))[0]
r["lerp"] = torch.lerp(x, torch.zeros_like(x), 0.25)[0]; r["addcmul"] = torch.addcmul(x, x, x, value=0.5)[0]
r["sigmoid_"] = x.clone().sigmoid_()[0]; r["tanh_"] = x.clone().tanh_()[1]; r["relu_"] = x.clone().relu_()[2]
r["exp_"] = x.clone().exp_()[0]; r["pow_"] = x.clone().abs().pow_(1.5)[0]; r["sqrt"] = x.abs().sqrt()[0]; r["rsqrt"] = x.abs().add(1).rsqrt()[0]
r["clamp_max"] = x.clamp(max=0.1)[0]; r["clip"] = x.clip(-0.2, 0.2)[0]; r["minimum"] = torch.minimum(x, torch.zeros(4))[0]; r["maximum"] = torch.maximum(x, x.t()[:3])[0] if False else torch.maximum(x, -x)[0]
r["diff"] = torch.diff(x, dim=1)[0]; r["cumsum_rev"] = x.flip(1).cumsum(1).flip(1)[0]; r["tril"] = torch.tril(x, -1); r["triu"] = x.triu(1)
r["trace"] = torch.trace(x[:, :3]); r["diag_embed"] = torch.diag(torch.tensor([1.0, 2.0])); r["kron"] = torch.kron(torch.eye(2), torch.ones(1, 2))
r["outer"] = torch.outer(torch.arange(3.0), torch.arange(2.0)); r["cross"] = torch.cross(torch.tensor([[1.0, 0, 0]]), torch.tensor([[0, 1.0, 0]]), dim=1)
r["std_mean"] = list(torch.std_mean(x, dim=1)); r["var_mean"] = list(torch.var_mean(x, dim=0, unbiased=False)); r["aminmax"] = list(torch.aminmax(x))
r["allclose"] = torch.allclose(x, x + 1e-9); r["isclose"] = torch.isclose(x, x + 1e-3, atol=1e-4)[0]; r["sgn"] = torch.sgn(x)[0]
r["searchsorted"] = torch.searchsorted(torch.tensor([1.0, 3.0, 5.0]), torch.tensor([0.0, 3.0, 4.0])); r["bucketize"] = torch.bucketize(torch.tensor([0.5, 3.0, 6.0]), torch.tensor([1.0, 3.0, 5.0]))
r["heaviside"] = torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor([0.5])); r["logdet"] = torch.logdet(torch.eye(3) * 2)
r["rot90"] = torch.rot90(torch.arange(4.0).view(2, 2)); r["tensordot"] = torch.tensordot(x, data(4, 2, seed=6), dims=([1], [0]))[0]
r["cummin"] = list(torch.cummin(x[0], 0)); r["logcumsumexp"] = torch.logcumsumexp(x[0], 0); r["amax"] = x.amax(dim=(0, 1)); r["nansum"] = torch.tensor([1.0, float("nan")]).nansum()
r["sum_dtype"] = torch.tensor([1, 2], dtype=torch.int32).sum().dtype; r["prod_dt"] = torch.tensor([True, True]).prod().dtype
r["square"] = x.square()[0]; r["reciprocal"] = x.reciprocal()[0]; r["expand_as"] = torch.ones(1, 4).expand_as(x).shape; r["masked_fill_"] = x.clone().masked_fill_(x > 0, 1.0)[0]
r["index_fill"] = x.index_fill(1, torch.tensor([0, 2]), -1.0)[0]; r["scatter_val"] = torch.zeros(2, 3).scatter(1, torch.tensor([[0], [2]]), 5.0)
r["full_like"] = torch.full_like(x, 7).sum(); r["rand_like"] = torch.rand_like(x).shape; r["randn_shape"] = torch.randn(2, 3, generator=torch.Generator().manual_seed(0)).shape
r["empty_like"] = torch.empty_like(x).dtype; r["zeros_dt"] = torch.zeros(2, dtype=torch.int64).dtype; r["ones_list"] = torch.ones([2, 2]).shape; r["arange_neg"] = torch.arange(5, 0, -2)
report(**r)
