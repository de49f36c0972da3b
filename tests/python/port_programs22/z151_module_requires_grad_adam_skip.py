import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 1)), seed=211)
opt = torch.optim.Adam(model.parameters(), lr=0.1)
model[0].requires_grad_(False)
x = data(4, 3, seed=212)
for _ in range(2):
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()
keys = [len(opt.state[p]) for p in model.parameters()]
model[0].requires_grad_(True)
opt.zero_grad()
model(x).sum().backward()
opt.step()
steps = [float(opt.state[p]["step"]) for p in model.parameters()]
report(keys=keys, steps=steps, w0=model[0].weight, w1=model[1].weight, ret=model.requires_grad_(True) is model,
       n_train=sum(p.numel() for p in model.parameters() if p.requires_grad))
