import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 1)))
log = []
m[2].register_full_backward_pre_hook(lambda mod, go: log.append(("pre", go[0].shape)) or (go[0] * 2,))
m[0].register_full_backward_hook(lambda mod, gi, go: log.append(("post", gi[0] is None)))
x = data(2, 3, seed=1)
m(x).sum().backward()
report(log=[[a, list(b) if not isinstance(b, bool) else b] for a, b in log], g=m[0].weight.grad[0])
