import torch
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(6, 10), nn.ReLU(), nn.Linear(10, 3)), 0, 1.0)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.5)
crit = nn.CrossEntropyLoss(reduction="mean")
X = data(24, 6, scale=3.0); Y = ints(3, 24)
accum = 4
norms, losses = [], []
opt.zero_grad()
for i, (xb, yb) in enumerate(zip(X.split(3), Y.split(3))):
    loss = crit(model(xb), yb) / accum
    loss.backward()
    losses.append(loss.item())
    if (i + 1) % accum == 0:
        total_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        norms.append(total_norm.item())
        opt.step(); opt.zero_grad()
g = [p.grad for p in model.parameters()]
loss = crit(model(X), Y); loss.backward()
torch.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.01)
gmax = max(p.grad.abs().max().item() for p in model.parameters())
n_inf = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=float("inf"))
report(norms=norms, losses=losses, gnone=[x is None for x in g], gmax=gmax, ninf=n_inf, w=model[2].weight)
