import torch
x = torch.arange(60).view(3, 4, 5)
res = {"ell_none": list(x[..., None, 1].shape), "bool_int": x[torch.tensor([True, False, True]), 1], "adv_pair": x[[0, 2], [1, 3]], "adv_broadcast": x[torch.tensor([[0], [2]]), torch.tensor([1, 3])].shape,
       "adv_slice_adv": list(x[[0, 1], :, [2, 3]].shape), "neg_idx": x[-1, -1, -2], "tensor_scalar_idx": x[torch.tensor(1)].shape, "step": x[:, ::2, 1::3], "none_mid": list(x[:, None, :, None].shape),
       "mask_2d": x[0][x[0] % 7 == 0], "list_of_list": x[[[0, 1], [1, 2]]].shape, "int_tensor_2d": x[0, torch.tensor([[0, 1], [2, 3]])], "bool_scalar": list(x[True].shape)}
y = torch.zeros(3, 4)
y[:, [1, 3]] = torch.tensor([1.0, 2.0])
y[y == 0] = torch.arange(6.0)
y[1:, ...] += 10
y[torch.tensor([0, 0]), torch.tensor([0, 0])] = 5.0
try:
    x[::-1]; res["neg_step"] = None
except ValueError:
    res["neg_step"] = "ValueError"
try:
    x[3]; res["oob"] = None
except IndexError:
    res["oob"] = "IndexError"
res["y"] = y
report(**{k: (list(v) if isinstance(v, torch.Size) else v) for k, v in res.items()})
