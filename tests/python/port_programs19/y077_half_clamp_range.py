import torch
import torch.nn.functional as F
h = torch.tensor([-70000.0, 1.0, 60000.0]).half() if False else torch.tensor([-1000.0, 1.0, 60000.0], dtype=torch.float16)
out = {}
out["c_ok"] = h.clamp(-100.0, 65504.0)
out["pad_ok"] = F.pad(h, (1, 0), value=-2.0)
out["cinf"] = h.clamp(max=float("inf"))
report(**out)
