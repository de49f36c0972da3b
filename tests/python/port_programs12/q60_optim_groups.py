import torch
import torch.nn as nn
backbone = det(nn.Linear(4, 4)); head = det(nn.Linear(4, 2), seed=1)
opt = torch.optim.SGD([{"params": backbone.parameters(), "lr": 0.01}, {"params": head.parameters()}], lr=0.1, momentum=0.9, weight_decay=1e-4)
x = data(8, 4); y = ints(2, 8)
hist = []
def step():
    opt.zero_grad(); l = nn.functional.cross_entropy(head(torch.relu(backbone(x))), y); l.backward(); opt.step(); return l.item()
hist.append(step())
for g in opt.param_groups:
    g["lr"] *= 0.5
hist.append(step())
extra = nn.Parameter(torch.ones(4))
opt.add_param_group({"params": [extra], "lr": 0.2, "momentum": 0.0})
def step2():
    opt.zero_grad(); l = nn.functional.cross_entropy(head(torch.relu(backbone(x * extra))), y); l.backward(); opt.step(); return l.item()
hist.append(step2()); hist.append(step2())
st = opt.state[head.weight]
mb = st["momentum_buffer"]
sd = opt.state_dict()
opt.zero_grad(set_to_none=False)
zg = head.weight.grad
backbone.weight.requires_grad_(False)
opt.zero_grad(set_to_none=True)
hist.append(step2())
report(hist=hist, lrs=[g["lr"] for g in opt.param_groups], mb=mb, pg=[sorted(g.keys()) for g in sd["param_groups"]], ids=[g["params"] for g in sd["param_groups"]], nstate=len(sd["state"]),
       zg=zg, bwg=backbone.weight.grad, extra=extra, defaults=sorted(opt.defaults.keys()), rep=repr(opt).replace("torch.optim.sgd.", "").split("\n")[0])
