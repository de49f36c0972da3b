import torch
import torch.nn as nn

m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
sd = m.state_dict()
kv = m.state_dict(keep_vars=True)
pre = m.state_dict(prefix="model.")
from collections import OrderedDict
dest = OrderedDict()
m[0].state_dict(destination=dest, prefix="lin.")
report(types=[type(v).__name__ for v in sd.values()][:1], rg=[sd["0.weight"].requires_grad, kv["0.weight"].requires_grad],
       is_param=isinstance(kv["0.weight"], nn.Parameter), pre=list(pre.keys()), dest=list(dest.keys()), od=type(sd).__name__,
       shares=torch.equal(sd["0.weight"], m[0].weight), nbt=sd["1.num_batches_tracked"].dtype)
