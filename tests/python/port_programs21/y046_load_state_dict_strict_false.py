import torch
import torch.nn as nn

old = det(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)), seed=1)
new = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2), nn.Linear(2, 1))
sd = old.state_dict()
sd["extra.weight"] = torch.zeros(1)
res = new.load_state_dict(sd, strict=False)
err = None
try:
    new.load_state_dict(sd)
except RuntimeError as e:
    err = ["Missing key(s)" in str(e), "Unexpected key(s)" in str(e)]
bad = {"0.weight": torch.zeros(5, 3)}
shape_err = None
try:
    new.load_state_dict(bad, strict=False)
except RuntimeError as e:
    shape_err = "size mismatch" in str(e)
report(missing=res.missing_keys, unexpected=res.unexpected_keys, tup=list(res), err=err, shape_err=shape_err,
       w=new[2].weight.detach(), keys=list(sd.keys()),
       ok=str(old.load_state_dict(old.state_dict())))
