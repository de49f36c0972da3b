import torch
out = {}
out["one"] = torch.zeros(1, dtype=torch.float16).fill_(1e5)
out["bf_full1"] = torch.full((1,), 1e39, dtype=torch.bfloat16)
out["scalar"] = torch.zeros((), dtype=torch.float16).fill_(-1e6)
try:
    torch.zeros(2, dtype=torch.float16).fill_(1e5)
    out["two"] = "ok"
except RuntimeError as e:
    out["two"] = "overflow" in str(e)
try:
    out["mf1"] = torch.zeros(1, dtype=torch.float16).masked_fill(torch.tensor([True]), 1e5)
except RuntimeError as e:
    out["mf1"] = "overflow" in str(e)
out["idx"] = torch.zeros(3, dtype=torch.float16).index_fill(0, torch.tensor([1]), 6e4)
report(**out)
