import torch
import torch.nn as nn
# a dict read from opt.state before a step is a snapshot in meshflow (docs/porting.md): it is not reported after the step

m = det(nn.Linear(2, 1))
opt = torch.optim.Adam(m.parameters(), lr=0.1)
empty = len(opt.state)
st = opt.state[m.weight]
after_access = len(opt.state)
m(data(3, 2)).sum().backward()
opt.step()
s = opt.state[m.weight]
report(empty=empty, after=after_access, keys=sorted(s.keys()), step=s["step"], ea=s["exp_avg"],
       defaults={k: v for k, v in opt.defaults.items() if k in ("lr", "betas", "eps", "weight_decay", "amsgrad")},
       r=repr(opt).split("\n")[0])
