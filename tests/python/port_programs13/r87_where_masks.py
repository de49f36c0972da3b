import torch
x = data(4, 5)
res = {
    "where3": torch.where(x > 0, x, torch.zeros_like(x))[0], "where_scalar": torch.where(x > 0, x, 0.0)[1], "where_both": torch.where(x > 0, 1, -1)[2],
    "where_dt": str(torch.where(x > 0, 1, -1).dtype), "where1": [t for t in torch.where(x > 1)], "nz_tuple": [t for t in torch.nonzero(x > 1, as_tuple=True)],
    "ms": torch.masked_select(x, x > 1), "argwhere": torch.argwhere(x > 1.2), "mask_assign_count": (x.abs() < 0.5).sum(),
    "tril_mask": x.masked_fill(~torch.ones(4, 5, dtype=torch.bool).tril(), 0)[1], "bool_idx_rows": x[torch.tensor([True, False, True, False])][:, 0],
    "clamp_t": torch.clamp(x[0], min=torch.tensor(-0.5), max=torch.tensor([0.5, 0.4, 0.3, 0.2, 0.1])), "sign": torch.sign(x[3]), "heav": torch.heaviside(x[3], torch.tensor(0.5)),
    "logical": torch.logical_and(x > 0, x < 1).sum(), "lor": torch.logical_or(x > 1, x < -1).sum(), "lnot": torch.logical_not(torch.tensor([0, 2])),
    "where_int_float": torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), torch.tensor([0.5, 0.5])),
}
x2 = x.clone().requires_grad_()
torch.where(x2 > 0, x2 ** 2, -x2).sum().backward()
res["grad"] = x2.grad[0]
report(**res)
