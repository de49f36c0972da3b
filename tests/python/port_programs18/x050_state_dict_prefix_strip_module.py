import collections
import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)))
wrapped = collections.OrderedDict(("module." + k, v) for k, v in m.state_dict().items())
new = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
clean = {k.removeprefix("module."): v for k, v in wrapped.items()}
new.load_state_dict(clean)
torch.nn.modules.utils.consume_prefix_in_state_dict_if_present(wrapped, "module.")
sd = new.state_dict(prefix="model.", keep_vars=False)
x = data(3, 2, seed=1)
report(keys=list(wrapped.keys()), same=torch.equal(new(x), m(x)), pref=list(sd.keys()), ver=getattr(wrapped, "_metadata", None) is not None)
