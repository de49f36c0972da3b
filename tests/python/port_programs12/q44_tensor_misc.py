import torch
x = data(3, 4); i = torch.arange(12).view(3, 4)
res = {}
res["cum"] = [x.cumprod(1), x.cummax(1).values, x.cummax(1).indices, x.cummin(0).indices, torch.logcumsumexp(x, 1), i.cumsum(0), i.cumsum(0).dtype]
res["diff"] = [torch.diff(x, dim=1), torch.diff(i, n=2, dim=1), torch.diff(torch.tensor([1, 4, 9]), prepend=torch.tensor([0]))]
res["flip"] = [x.flip(0, 1), torch.fliplr(i), torch.flipud(i), torch.roll(i, shifts=(1, -1), dims=(0, 1)), torch.roll(i, 2), torch.rot90(i, 2)]
r, c = torch.tril_indices(3, 3, offset=-1); r2 = torch.triu_indices(3, 4, 1)
res["idx"] = [r, c, r2, i[r, c]]
res["tad"] = [torch.take_along_dim(x, x.argsort(dim=1), dim=1), torch.take(i, torch.tensor([0, 5, 11]))]
res["rep"] = [torch.repeat_interleave(torch.tensor([1, 2, 3]), torch.tensor([2, 0, 1])), i.repeat_interleave(2, dim=0).shape, torch.repeat_interleave(torch.tensor([3, 1])), i.repeat(2, 1, 2).shape, x.tile((2,)).shape]
res["stacks"] = [torch.hstack([i, i]).shape, torch.vstack([i[0], i[1]]), torch.dstack([i, i]).shape, torch.column_stack([torch.arange(3), torch.arange(3)]), torch.row_stack([torch.arange(2), torch.arange(2)])]
res["split"] = [[t.shape for t in i.split([1, 3], dim=1)], [t.tolist() for t in torch.tensor_split(torch.arange(7), 3)], [t.tolist() for t in torch.tensor_split(torch.arange(7), [1, 5])], [t.shape for t in i.chunk(3, 1)], [t.tolist() for t in torch.arange(5).chunk(3)]]
res["moves"] = [torch.movedim(torch.zeros(2, 3, 4), 0, -1).shape, torch.swapaxes(torch.zeros(2, 3, 4), 0, 2).shape, torch.zeros(2, 3, 4).mT.shape, torch.zeros(2, 1, 3).squeeze().shape, torch.zeros(2, 1, 1).squeeze((1, 2)).shape, torch.zeros(3).unflatten(0, (1, 3)).shape]
res["arith"] = [torch.addcmul(x, x, x, value=0.5), torch.addcdiv(x, x, x.abs() + 1, value=2), torch.lerp(x, torch.zeros(4), 0.25), torch.lerp(x, x * 2, torch.full((3, 4), 0.5))]
res["nan"] = [torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf")]), nan=0.0, posinf=9.0), torch.nansum(torch.tensor([1.0, float("nan")])), torch.nanmean(torch.tensor([1.0, float("nan"), 3.0])), torch.isclose(torch.tensor([1.0, float("nan")]), torch.tensor([1.0, float("nan")]), equal_nan=True)]
res["round"] = [x.frac(), x.trunc(), torch.round(x, decimals=1), torch.round(torch.tensor([0.5, 1.5, 2.5, -0.5])), x.ceil(), x.floor()]
res["mod"] = [torch.fmod(torch.tensor([-3, 3]), 2), torch.remainder(torch.tensor([-3, 3]), 2), torch.tensor([-7, 7]) // 2, torch.floor_divide(torch.tensor([-7.5]), 2), torch.div(torch.tensor([-7, 7]), 2, rounding_mode="trunc"), torch.tensor([-3.5]) % 2]
res["bits"] = [i & 5, i | 8, i ^ 3, ~i[0], i << 2, i >> 1, torch.bitwise_left_shift(i[0], 1)]
res["stat"] = [x.std(), x.var(1, keepdim=True), torch.std_mean(x, dim=0), torch.var_mean(x, unbiased=False), x.logsumexp(1), x.norm(dim=1), x.norm(p=1), torch.aminmax(x), x.prod(1), x.amax(dim=(0, 1)), torch.argmax(x), x.argmin(1, keepdim=True)]
res["sorts"] = [x.sort(dim=1, descending=True).values, torch.sort(torch.tensor([3, 1, 2, 1]), stable=True).indices, torch.argsort(x, dim=0), torch.msort(x)]
res["cmp"] = [torch.topk(x, 2, dim=0, largest=False).indices, x.max(dim=1), x.min(), torch.clip(x, -0.5, 0.5)]
res["creation"] = [torch.full((2,), 7).dtype, torch.arange(0, 1, 0.25), torch.linspace(-1, 1, 5), torch.logspace(0, 2, 3), torch.eye(2, 3), torch.empty(2, 0).shape, torch.zeros_like(i, dtype=torch.float), torch.ones(2, dtype=torch.bool), torch.arange(5)[torch.tensor([True, False, True, False, True])], torch.tensor([]).shape, torch.tensor([[]]).shape]
report(**res)
