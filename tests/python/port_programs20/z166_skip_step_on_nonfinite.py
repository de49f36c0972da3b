import math
import torch
import torch.nn as nn

m = det(nn.Linear(2, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
xs = [data(3, 2), torch.tensor([[float("inf"), 1.0]] * 3), data(3, 2, seed=4)]
log = []
for x in xs:
    opt.zero_grad()
    loss = m(x).pow(2).mean()
    loss.backward()
    norm = nn.utils.clip_grad_norm_(m.parameters(), 1.0)
    if not torch.isfinite(norm):
        log.append(["skip", math.isfinite(loss.item())])
        continue
    opt.step()
    log.append(["step", round(norm.item(), 5)])
report(log=log, w=m.weight, b=m.bias)
