import torch
i32 = torch.tensor([2 ** 30, 2 ** 30, 2 ** 30], dtype=torch.int32)
res = {"sum_i32": i32.sum(), "sum_i32_dt": str(i32.sum().dtype), "prod_i": torch.tensor([3, 4, 5]).prod(), "cumsum_u8": torch.tensor([200, 100], dtype=torch.uint8).cumsum(0),
       "mean_float_of_int": torch.tensor([1, 2]).float().mean(), "sum_bool_dim": torch.tensor([[True, False], [True, True]]).sum(1), "max_int": torch.tensor([3, 7, 7]).max(0),
       "argmin_ties": torch.tensor([2, 1, 1]).argmin(), "std_int_err": None, "div_int_tensor": torch.tensor([7]) / torch.tensor([2]), "sum_dtype": torch.tensor([1, 2], dtype=torch.int8).sum(dtype=torch.int16),
       "amax_u8": torch.tensor([1, 255], dtype=torch.uint8).amax(), "count": torch.tensor([0, 3, 0]).count_nonzero(), "all_int": torch.tensor([1, 2]).all(), "mean_dtype": torch.tensor([1, 2]).mean(dtype=torch.float64)}
try:
    torch.tensor([1, 2]).mean()
except RuntimeError:
    res["std_int_err"] = "RuntimeError"
report(**{k: (list(v) if isinstance(v, tuple) else v) for k, v in res.items()})
