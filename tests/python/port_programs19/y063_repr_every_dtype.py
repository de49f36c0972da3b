import torch
out = {}
for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool):
    out[str(dt).split(".")[-1]] = repr(torch.tensor([1, 0, 3], dtype=dt))
out["f_frac"] = repr(torch.tensor([1.5, 2.25, -3.0]))
out["big"] = repr(torch.tensor([1e10, 1.0]))
out["small"] = repr(torch.tensor([1e-5, 1.0]))
out["scalar"] = repr(torch.tensor(2.5))
out["int_scalar"] = repr(torch.tensor(7))
out["empty"] = repr(torch.tensor([]))
out["empty2"] = repr(torch.zeros(0, 3))
out["nan"] = repr(torch.tensor([float("nan"), float("inf"), 1.0]))
out["grad"] = repr(torch.tensor([1.0, 2.0], requires_grad=True))
report(**out)
