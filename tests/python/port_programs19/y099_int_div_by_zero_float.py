import torch
out = {}
out["fdiv"] = torch.tensor([1.0, -1.0, 0.0]) / 0
out["idiv_true"] = torch.tensor([1, -1, 0]) / 0
out["fmodf"] = torch.fmod(torch.tensor([1.0]), 0.0)
out["remf"] = torch.remainder(torch.tensor([1.0]), 0.0)
out["fdiv_floor"] = torch.tensor([1.0, -1.0]) // 0.0
report(**out)
