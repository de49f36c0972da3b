import torch
a = torch.tensor([[1, 2], [3, 4]])
b = torch.tensor([[5, 6], [7, 8]])
out = {}
out["ii"] = a @ b
out["iidt"] = (a @ b).dtype
try:
    out["if"] = a @ b.float()
except RuntimeError as e:
    out["if"] = "dtype" in str(e).lower() or "type" in str(e).lower()
out["mv"] = torch.mv(a, torch.tensor([1, 1]))
out["dot"] = torch.dot(torch.tensor([1, 2]), torch.tensor([3, 4]))
out["bmm"] = torch.bmm(a[None], b[None])
out["i8"] = (a.to(torch.int8) @ b.to(torch.int8)).dtype
out["matpow"] = torch.matrix_power(a, 2) if hasattr(torch, "matrix_power") else a @ a
report(**out)
