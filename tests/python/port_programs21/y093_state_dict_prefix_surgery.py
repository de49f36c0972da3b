import collections
import torch
import torch.nn as nn

src = det(nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)), seed=1)
sd = src.state_dict()
wrapped = collections.OrderedDict(("module." + k, v) for k, v in sd.items())
stripped = {k.replace("module.", "", 1): v for k, v in wrapped.items()}


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
        self.head = nn.Linear(3, 1)


net = Net()
mapped = {("backbone." + k if k.startswith("0.") else "head." + k[2:]): v for k, v in stripped.items()}
res = net.load_state_dict(mapped)
partial = Net()
r2 = partial.load_state_dict({k: v for k, v in mapped.items() if k.startswith("backbone")}, strict=False)
x = data(4, 2, seed=2)
report(keys=list(wrapped), res=str(res), out=net.head(net.backbone(x)).detach(), same=torch.allclose(net.head(net.backbone(x)), src(x)),
       missing=r2.missing_keys, unexpected=r2.unexpected_keys, sd_type=type(sd).__name__, version=hasattr(sd, "_metadata"))
