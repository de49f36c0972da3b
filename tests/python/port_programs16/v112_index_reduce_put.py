import torch

x = torch.ones(3, 2)
idx = torch.tensor([0, 2, 0, 1])
src = torch.tensor([[2.0, 3.0], [4.0, 5.0], [6.0, 7.0], [8.0, 9.0]])
res = {
    "prod": x.clone().index_reduce_(0, idx, src, "prod"),
    "mean": x.clone().index_reduce_(0, idx, src, "mean"),
    "mean_noself": x.clone().index_reduce_(0, idx, src, "mean", include_self=False),
    "amax": x.clone().index_reduce_(0, idx, src, "amax"),
    "amin_noself": torch.zeros(3, 2).index_reduce_(0, idx, src, "amin", include_self=False),
    "put_acc": torch.zeros(2, 3).put_(torch.tensor([0, 5, 0]), torch.tensor([1.0, 2.0, 3.0]), accumulate=True),
    "put": torch.zeros(4).put(torch.tensor([3, 1]), torch.tensor([9.0, 8.0])),
    "index_add_alpha": torch.zeros(3).index_add(0, torch.tensor([0, 0, 2]), torch.tensor([1.0, 2.0, 3.0]), alpha=-2),
    "masked_scatter_": torch.zeros(2, 3).masked_scatter_(torch.tensor([[True, False, True], [False, True, False]]), torch.arange(6.0)),
    "scatter_2d": torch.zeros(3, 3).scatter(0, torch.tensor([[2, 1, 0], [0, 2, 1]]), torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])),
    "index_fill_t": torch.arange(6.0).view(2, 3).index_fill(1, torch.tensor([0, 2]), torch.tensor(-1.0)),
}
report(**res)
