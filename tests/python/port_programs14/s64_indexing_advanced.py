import torch

x = torch.arange(60).view(3, 4, 5)
out = {
    "a": x[[0, 2], :, [1, 3]], "b": x[:, [1, 2]][..., [0, 4]], "c": x[1, [0, 3], 2:], "d": x[x % 7 == 0],
    "e": x[torch.tensor([[0, 1], [2, 0]])].shape, "f": x[None, ..., 1].shape, "g": x[:, torch.tensor([True, False, True, False])].shape,
    "h": x[-1, -1, -3:], "i": x[torch.tensor(1)].shape, "j": x[1:, 1:, ::2].shape, "k": x[[1]].shape,
    "l": x.index_select(2, torch.tensor([4, 0])).shape, "m": x[:, 1, torch.tensor([0, 1])], "n": x[..., None].shape,
    "o": torch.take(x, torch.tensor([0, 59, 30])), "p": x[(0, 1)], "q": x[[0, 1], [1, 2]], "r": x[torch.tensor([2, 0])][:, 0, 0],
}
y = torch.zeros(3, 4)
y[[0, 2], [1, 3]] = torch.tensor([5.0, 6.0])
y[1] = torch.arange(4.0)
y[:, 0] += 1
y[y == 0] = -1
idx = torch.tensor([0, 0, 2])
z = torch.zeros(4)
z[idx] += 1
z2 = torch.zeros(4).index_put((idx,), torch.ones(3), accumulate=True)
report(**{k: (v if isinstance(v, torch.Tensor) and v.dim() > 0 and k not in "efgijkln" else str(v) if not isinstance(v, torch.Tensor) or v.dim() == 0 else v) for k, v in out.items()},
       y=y, z=z, z2=z2)
