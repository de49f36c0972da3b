import torch
import torch.nn as nn

old = det(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)))
new = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2), nn.Linear(2, 1))
sd = old.state_dict()
sd["extra.weight"] = torch.zeros(1)
result = new.load_state_dict(sd, strict=False)
prefixed = {"module." + k: v for k, v in old.state_dict().items()}
stripped = {k.removeprefix("module."): v for k, v in prefixed.items()}
fresh = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
fresh.load_state_dict(stripped)
dbl = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)).double()
dbl.load_state_dict(old.state_dict())
kv = old.state_dict(keep_vars=True)
try:
    fresh.load_state_dict({"0.weight": torch.zeros(5, 3)}, strict=False)
    err = None
except RuntimeError as e:
    err = "size mismatch" in str(e)
x = data(2, 3)
report(missing=result.missing_keys, unexpected=result.unexpected_keys, same=torch.equal(fresh(x), old(x)), dtype=dbl[0].weight.dtype,
       dbl=dbl(x.double()).detach(), kv=[type(v).__name__ for v in kv.values()], kv_rg=kv["0.weight"].requires_grad, err=err,
       sd_rg=sd["0.weight"].requires_grad, keys=list(old.state_dict().keys()), meta=hasattr(sd, "_metadata"))
