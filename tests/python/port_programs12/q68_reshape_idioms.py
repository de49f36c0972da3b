import torch
x = torch.arange(24).view(2, 3, 4)
res = {}
res["a"] = [x.flatten(1).shape, x.flatten(0, 1).shape, x.unflatten(2, (2, 2)).shape, x[None, ..., None].shape, x[:, None].shape, x[..., 1].shape, x[:, ::2, 1::2], x[-1, -1], x[:, [0, 2]][:, :, [1, 3]]]
res["b"] = [x.expand(2, 2, 3, 4).shape if False else x.unsqueeze(0).expand(2, -1, -1, -1).shape, x.repeat(1, 2, 1).shape, torch.broadcast_to(torch.arange(3), (2, 3)), [t.shape for t in torch.broadcast_tensors(torch.zeros(3, 1), torch.zeros(1, 4))], torch.atleast_2d(torch.tensor(1.0)).shape, torch.atleast_3d(torch.zeros(2)).shape]
res["c"] = [x.permute(2, 0, 1).reshape(4, -1)[1], x.transpose(0, 2).contiguous().view(-1)[:5], x.mT.shape, x.movedim(-1, 0).shape, x.view(-1, 4).t().shape, x.unbind(1)[2], [t.shape for t in x.chunk(2, dim=2)], x.narrow(2, 1, 2).sum()]
res["d"] = [x.sum((0, 2)), x.float().mean(-1, keepdim=True).shape, x.max(dim=-1).values, x.argmax(-1), torch.einsum("bij->bj", x), x.reshape(2, 12).T.shape, x.view(6, 4).split(4)[1], x.stride() if False else None]
res["e"] = [x.select(2, 3), x.index_select(1, torch.tensor([2, 0])), x.take_along_dim(torch.tensor([[[1]], [[2]]]), dim=2).squeeze(), x.gather(1, torch.zeros(2, 1, 4, dtype=torch.long)).squeeze(1), x.masked_select(x % 5 == 0)]
y = x.clone().float()
y[:, 1:, :2] = torch.tensor([[-1.0, -2.0]])
y[0][1][3] = 99
y[1, ..., 0] = 7
y[torch.tensor([0, 1]), torch.tensor([2, 0]), torch.tensor([3, 3])] = 50
res["f"] = y
res["g"] = [x.numel(), x.size(-1), x.shape[1:], len(x), x.dim(), list(x.size()), x.new_empty(x.shape[1:]).shape, x.is_contiguous(), x.transpose(0, 1).is_contiguous()]
report(**res)
