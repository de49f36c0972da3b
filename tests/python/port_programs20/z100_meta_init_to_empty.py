import torch
import torch.nn as nn

with torch.device("meta"):
    m = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4))
meta = [p.device.type for p in m.parameters()][:1]
m = m.to_empty(device="cpu")
for mod in m.modules():
    if hasattr(mod, "reset_parameters"):
        mod.reset_parameters()
det(m)
x = data(2, 3)
lin = nn.Linear(3, 4, device="meta")
lin2 = torch.nn.utils.skip_init(nn.Linear, 3, 4)
report(meta=meta, out=m(x), dev=str(m[0].weight.device), ln=m[1].weight, lmeta=lin.weight.is_meta, shape=lin2.weight.shape,
       e=torch.empty(2, 3, device="meta").shape)
