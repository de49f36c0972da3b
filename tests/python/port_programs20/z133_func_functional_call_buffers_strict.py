import torch
import torch.nn as nn
from torch.func import functional_call

m = det(nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3)))
x = data(4, 2)
params = dict(m.named_parameters())
buffers = dict(m.named_buffers())
m.train()
out = functional_call(m, (params, buffers), (x,))
rm = buffers["1.running_mean"].clone()
new_p = {k: v * 2 for k, v in params.items()}
out2 = functional_call(m, new_p, x, strict=False)
try:
    functional_call(m, {"0.weight": params["0.weight"]}, (x,), strict=True)
    err = None
except RuntimeError as e:
    err = "missing"
v = torch.vmap(lambda a, b: (a * b).sum(), chunk_size=2)(x, x)
report(out=out, rm=rm, mrm=m[1].running_mean, out2=out2, err=err, v=v, w_unchanged=torch.equal(m[0].weight, params["0.weight"]))
