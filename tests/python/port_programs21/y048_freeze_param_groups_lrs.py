import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)), seed=1)
for p in model[0].parameters():
    p.requires_grad_(False)
opt = torch.optim.SGD([{"params": model[2].weight, "lr": 0.5}, {"params": model[2].bias}], lr=0.1, momentum=0.9)
x, y = data(5, 3, seed=2), ints(2, 5, seed=3)
w0 = model[0].weight.clone()
for _ in range(3):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
model[0].weight.requires_grad_(True)
opt.add_param_group({"params": [model[0].weight], "lr": 0.01, "momentum": 0.0})
loss = nn.functional.cross_entropy(model(x), y)
opt.zero_grad()
loss.backward()
opt.step()
report(frozen=torch.equal(model[0].bias, torch.from_numpy(model[0].bias.detach().numpy())),
       w0moved=not torch.equal(w0, model[0].weight), lrs=[g["lr"] for g in opt.param_groups],
       moms=[g["momentum"] for g in opt.param_groups], w2=model[2].weight.detach(), b2=model[2].bias.detach(),
       w0=model[0].weight.detach(), ngroups=len(opt.param_groups), bgrad=model[0].bias.grad is None,
       keys=sorted(opt.param_groups[2].keys()))
