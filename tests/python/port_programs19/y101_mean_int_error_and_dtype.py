import torch
out = {}
try:
    torch.tensor([1, 2, 3]).mean()
    out["mean_int"] = "ok"
except RuntimeError as e:
    out["mean_int"] = "dtype" in str(e).lower()
out["mean_dt"] = torch.tensor([1, 2, 4]).mean(dtype=torch.float32)
out["mean_f16"] = torch.tensor([1.0, 2.0], dtype=torch.float16).mean().dtype
out["mean_bool_sum"] = torch.tensor([True, True, False]).sum()
try:
    torch.tensor([1, 2]).std()
    out["std_int"] = "ok"
except RuntimeError as e:
    out["std_int"] = True
out["prod_dt"] = torch.tensor([2, 3]).prod(dtype=torch.float64)
out["cumprod_i"] = torch.tensor([2, 3, 4], dtype=torch.int8).cumprod(0)
out["cumprod_idt"] = torch.tensor([2, 3, 4], dtype=torch.int8).cumprod(0).dtype
report(**out)
