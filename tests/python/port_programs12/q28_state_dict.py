import copy
import io
import pickle
import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self, extra=False):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU())
        self.head = nn.Linear(8, 3)
        if extra:
            self.aux = nn.Linear(3, 1)
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))
        self.register_buffer("tmp", torch.ones(2), persistent=False)
    def forward(self, x):
        self.steps += 1
        return self.head(self.features(x).flatten(1)[:, :8])
a = det(Net())
x = data(2, 1, 4, 4)
a(x)
sd = a.state_dict()
keys = list(sd.keys())
b = Net(extra=True)
r = b.load_state_dict(sd, strict=False)
missing, unexpected = r.missing_keys, r.unexpected_keys
c = Net()
sd2 = {k: v for k, v in sd.items() if not k.startswith("head")}
sd2["bogus.weight"] = torch.zeros(1)
r2 = c.load_state_dict(sd2, strict=False)
try:
    c.load_state_dict(sd2)
    err = None
except RuntimeError as e:
    err = "Missing key(s)" in str(e) and "Unexpected key(s)" in str(e)
try:
    bad = dict(sd); bad["head.weight"] = torch.zeros(2, 2)
    Net().load_state_dict(bad)
    err2 = None
except RuntimeError as e:
    err2 = "size mismatch" in str(e)
wrapped = {"module." + k: v for k, v in sd.items()}
torch.nn.modules.utils.consume_prefix_in_state_dict_if_present(wrapped, "module.")
d = Net(); d.load_state_dict(wrapped)
e = copy.deepcopy(a)
e.head.weight.data.add_(1)
indep = not torch.equal(e.head.weight, a.head.weight)
f = pickle.loads(pickle.dumps(a))
buf = io.BytesIO(); torch.save(a, buf); buf.seek(0)
g = torch.load(buf, weights_only=False)
buf2 = io.BytesIO(); torch.save(sd, buf2); buf2.seek(0)
sd3 = torch.load(buf2, map_location="cpu", weights_only=True)
a.eval(); f.eval(); g.eval(); d.eval()
with torch.no_grad():
    outs = [m(x) for m in (a, f, g, d)]
p = nn.Parameter(torch.ones(2)); pc = copy.deepcopy(p)
report(keys=keys, missing=missing, unexpected=unexpected, r2=[r2.missing_keys, r2.unexpected_keys], err=err, err2=err2, indep=indep,
       outs=outs, steps=[int(m.steps) for m in (a, f, g, d)], sd3=sorted(sd3.keys()), ptype=type(pc).__name__, prg=pc.requires_grad, wk=list(wrapped)[:2],
       sdtype=type(sd).__name__, dt=str(sd["steps"].dtype), tmp="tmp" in sd)
