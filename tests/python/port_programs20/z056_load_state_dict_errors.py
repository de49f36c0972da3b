import torch
import torch.nn as nn

m = nn.Linear(3, 2)
errs = []
try:
    m.load_state_dict({"weight": torch.zeros(2, 3)})
except RuntimeError as e:
    errs.append(["missing", "Missing key(s)" in str(e), "bias" in str(e)])
try:
    m.load_state_dict({"weight": torch.zeros(3, 3), "bias": torch.zeros(2)})
except RuntimeError as e:
    errs.append(["shape", "size mismatch" in str(e)])
try:
    m.load_state_dict({"weight": torch.zeros(2, 3), "bias": torch.zeros(2), "zzz": torch.zeros(1)})
except RuntimeError as e:
    errs.append(["unexpected", "Unexpected key(s)" in str(e)])
r = m.load_state_dict({"weight": torch.ones(2, 3)}, strict=False)
try:
    m.load_state_dict({"weight": torch.zeros(4, 3)}, strict=False)
except RuntimeError as e:
    errs.append(["strict-shape", "size mismatch" in str(e)])
sd = {"module." + k: v for k, v in nn.Linear(3, 2).state_dict().items()}
clean = {k.removeprefix("module."): v for k, v in sd.items()}
r2 = m.load_state_dict(clean)
report(errs=errs, r=[r.missing_keys, r.unexpected_keys], r2=str(r2), w=m.weight.shape)
