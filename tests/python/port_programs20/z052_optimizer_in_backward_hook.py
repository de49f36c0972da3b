import torch
import torch.nn as nn
# the hooks run as each gradient is final; a Linear's weight and bias in meshflow's order (docs/porting.md):
# their order is reported sorted

m = det(nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 1)))
opts = {p: torch.optim.SGD([p], lr=0.1) for p in m.parameters()}
order = []


def hook(p):
    order.append(tuple(p.shape))
    opts[p].step()
    opts[p].zero_grad()


for p in m.parameters():
    p.register_post_accumulate_grad_hook(hook)
x = data(4, 3)
for _ in range(2):
    m(x).pow(2).sum().backward()
report(order=sorted(list(o) for o in order), w=m[0].weight, grads=[p.grad is None for p in m.parameters()])
