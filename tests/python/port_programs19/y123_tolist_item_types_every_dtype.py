import torch
out = {}
for dt in (torch.float16, torch.bfloat16, torch.int8, torch.uint8, torch.int16, torch.int32, torch.bool, torch.float64):
    t = torch.tensor([1, 0], dtype=dt)
    out[str(dt).split(".")[-1]] = [type(t.tolist()[0]).__name__, type(t[0].item()).__name__, t.tolist()]
out["half_val"] = torch.tensor([0.1], dtype=torch.float16).item()
out["bf_val"] = torch.tensor([0.1], dtype=torch.bfloat16).tolist()
out["f32_val"] = torch.tensor(0.1).item()
out["zero_dim_tl"] = torch.tensor(5).tolist()
report(**out)
