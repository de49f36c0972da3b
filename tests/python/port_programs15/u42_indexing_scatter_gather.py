import torch

x = torch.arange(24).reshape(4, 6)
r = {}
r["fancy"] = x[[0, 2, 3], [1, 1, 5]]
r["broadcast_idx"] = x[torch.tensor([[0], [3]]), torch.tensor([0, 2, 4])]
r["mixed"] = x[1:, [0, -1]]
r["bool_row"] = x[x[:, 0] > 5]
r["neg_step"] = x.flip(0)[::2, ::-1].contiguous() if False else x.flip(0)[::2].flip(1)
r["ellipsis_none"] = x[None, ..., 1].shape
y = torch.zeros(3, 5)
idx = torch.tensor([[0, 1, 2, 0, 0], [2, 0, 0, 1, 2]])
r["scatter"] = y.scatter(0, idx, torch.ones(2, 5))
r["scatter_add"] = torch.zeros(3, 5).scatter_add(0, idx, torch.arange(10.).view(2, 5))
r["scatter_reduce"] = torch.zeros(3).scatter_reduce(0, torch.tensor([0, 1, 0, 2, 2]), torch.tensor([5., 1, 7, 2, 3]),
                                                    reduce="amax", include_self=False)
r["scatter_mean"] = torch.ones(3).scatter_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([2., 4, 6]), reduce="mean")
r["scatter_value"] = torch.zeros(2, 4).scatter_(1, torch.tensor([[1], [3]]), 9.0)
r["scatter_mul"] = torch.ones(4).scatter_(0, torch.tensor([0, 0, 3]), torch.tensor([2., 3., 4.]), reduce="multiply")
r["gather"] = torch.gather(x, 1, torch.tensor([[5, 0], [1, 1], [2, 3], [0, 0]]))
r["index_add"] = torch.zeros(5).index_add(0, torch.tensor([0, 4, 0]), torch.tensor([1., 2, 3]), alpha=2)
z = torch.zeros(3, 3)
z[[0, 1, 1], [2, 0, 0]] = torch.tensor([1., 2., 3.])
r["setitem_dup_last"] = z[1, 0].item() in (2.0, 3.0)
w = torch.zeros(4)
w.index_put_((torch.tensor([1, 1, 3]),), torch.tensor([1., 2., 3.]), accumulate=True)
r["index_put_acc"] = w
m = torch.zeros(2, 3)
m[:, [0, 2]] += 5
m[m > 0] -= 1
r["aug"] = m
r["take"] = torch.take(x, torch.tensor([[0, 23], [7, 8]]))
r["masked_scatter"] = torch.zeros(2, 3).masked_scatter(torch.tensor([[True, False, True], [False, True, False]]),
                                                       torch.tensor([1., 2, 3, 4]))
r["nonzero_tuple"] = [t.tolist() for t in torch.nonzero(x % 7 == 0, as_tuple=True)]
r["argwhere"] = torch.argwhere(x[:2] > 9)
r["searchsorted"] = torch.searchsorted(torch.tensor([1, 3, 5, 7]), torch.tensor([0, 3, 6, 9]), right=True)
r["bucketize"] = torch.bucketize(torch.tensor([0.5, 2.0, 4.5]), torch.tensor([1.0, 2.0, 3.0]))
report(**r)
