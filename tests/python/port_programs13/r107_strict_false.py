import torch
import torch.nn as nn
old = det(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)))
sd = old.state_dict()
new = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2), nn.Linear(2, 1))
res = new.load_state_dict(sd, strict=False)
prefixed = {"module." + k: v for k, v in sd.items()}
clean = {k.removeprefix("module."): v for k, v in prefixed.items()}
m3 = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
r3 = m3.load_state_dict(clean)
bad = dict(sd); bad["2.weight"] = torch.zeros(3, 4)
try:
    m3.load_state_dict(bad); err = None
except RuntimeError as e:
    err = "size mismatch" in str(e)
extra = dict(sd); extra["foo"] = torch.ones(1)
try:
    m3.load_state_dict(extra); err2 = None
except RuntimeError as e:
    err2 = "Unexpected key" in str(e)
report(missing=res.missing_keys, unexpected=res.unexpected_keys, r3=str(r3), err=err, err2=err2, w=m3[2].bias, prefix=list(old.state_dict(prefix="enc.").keys())[:2], keep=old.state_dict(keep_vars=True)["0.weight"].requires_grad)
