import torch
import torch.nn as nn


class A(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(3, 4)
        self.bn = nn.BatchNorm1d(4)
        self.old_head = nn.Linear(4, 2)


class B(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(3, 4)
        self.bn = nn.BatchNorm1d(4)
        self.new_head = nn.Linear(4, 5)


a, b = det(A()), B()
res = b.load_state_dict(a.state_dict(), strict=False)
err = None
try:
    b.load_state_dict(a.state_dict())
except RuntimeError as e:
    err = "Missing key(s)" in str(e) and "Unexpected key(s)" in str(e)
sd = {k: v for k, v in a.state_dict().items() if not k.startswith("old_head")}
res2 = b.load_state_dict(sd, strict=False)
shape_err = None
bad = dict(a.state_dict())
bad["enc.weight"] = torch.zeros(5, 3)
try:
    b.load_state_dict(bad, strict=False)
except RuntimeError as e:
    shape_err = "size mismatch" in str(e)
report(missing=sorted(res.missing_keys), unexpected=sorted(res.unexpected_keys), err=err, m2=res2.missing_keys,
       u2=res2.unexpected_keys, eq=torch.equal(a.enc.weight, b.enc.weight), shape_err=shape_err,
       nbt=b.bn.num_batches_tracked, keys=list(a.state_dict().keys()))
