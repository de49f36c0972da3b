import torch
import torch.nn.functional as F
h = torch.tensor([-70000.0, 1.0, 60000.0]).half() if False else torch.tensor([-1000.0, 1.0, 60000.0], dtype=torch.float16)
out = {}
try:
    out["c_big"] = h.clamp(-1e5, 1e5)
except RuntimeError as e:
    out["c_big"] = "overflow" in str(e)
out["c_ok"] = h.clamp(-100.0, 65504.0)
try:
    out["ht"] = F.hardtanh(h, -1e6, 1e6)
except RuntimeError as e:
    out["ht"] = "overflow" in str(e)
try:
    out["pad"] = F.pad(h, (1, 1), value=1e6)
except RuntimeError as e:
    out["pad"] = "overflow" in str(e)
out["pad_ok"] = F.pad(h, (1, 0), value=-2.0)
out["cinf"] = h.clamp(max=float("inf"))
report(**out)
