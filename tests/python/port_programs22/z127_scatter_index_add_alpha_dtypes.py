import torch

idx = torch.tensor([0, 2, 2, 1, 0])
src = torch.tensor([1, 2, 3, 4, 5])
r = {
    "ia_alpha": torch.zeros(3).index_add(0, idx, torch.arange(5.), alpha=2.5),
    "ia_int": torch.zeros(3, dtype=torch.long).index_add_(0, idx, src),
    "sr_mean_int": torch.tensor([10, 10, 10]).scatter_reduce(0, idx, src, "mean", include_self=True),
    "sr_mean_int_ex": torch.tensor([10, 10, 10]).scatter_reduce(0, idx, src, "mean", include_self=False),
    "sr_prod_ex": torch.tensor([7.0, 7.0, 7.0, 7.0]).scatter_reduce(0, idx, src.float(), "prod", include_self=False),
    "scatter_add_2d": torch.zeros(2, 4).scatter_add(1, torch.tensor([[0, 1, 1], [3, 3, 0]]), torch.ones(2, 3)),
    "scatter_reduce_str": torch.ones(3).scatter(0, torch.tensor([0, 0, 2]), torch.tensor([2.0, 3.0, 4.0]), reduce="multiply"),
    "scatter_add_str": torch.ones(3).scatter(0, torch.tensor([0, 0, 2]), torch.tensor([2.0, 3.0, 4.0]), reduce="add"),
    "index_reduce": torch.ones(3).index_reduce(0, idx, torch.arange(1., 6.), "amax", include_self=False),
    "index_reduce_mean": torch.full((3,), 2.0).index_reduce(0, idx, torch.arange(1., 6.), "mean"),
    "bincount_w": torch.bincount(idx, weights=torch.tensor([0.5, 1.0, 1.5, 2.0, 2.5], dtype=torch.float64)),
    "bincount_empty": torch.bincount(torch.tensor([], dtype=torch.long), minlength=3),
}
x = torch.arange(5.0, requires_grad=True)
torch.zeros(3).index_add(0, idx, x * 2, alpha=3).sum().backward()
r["grad"] = x.grad
report(**r)
