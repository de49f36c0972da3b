import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 1)), seed=1)
ref = det(nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 1)), seed=1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
ropt = torch.optim.SGD(ref.parameters(), lr=0.05)
x, y = data(16, 6, seed=2), data(16, 1, seed=3)
accumulation_steps = 4
loss_fn = nn.MSELoss()
log = []
opt.zero_grad()
for i, (xb, yb) in enumerate(zip(x.split(4), y.split(4))):
    loss = loss_fn(model(xb), yb) / accumulation_steps
    loss.backward()
    if (i + 1) % accumulation_steps == 0:
        opt.step()
        opt.zero_grad()
    log.append(loss.item())
ropt.zero_grad()
loss_fn(ref(x), y).backward()
ropt.step()
report(log=log, close=all(torch.allclose(a, b, atol=1e-6) for a, b in zip(model.parameters(), ref.parameters())),
       w=model[2].weight)
