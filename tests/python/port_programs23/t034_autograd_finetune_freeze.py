import torch
from torch import nn, optim

model = det(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 12)), seed=3)
for param in model.parameters():
    param.requires_grad = False
model[2] = nn.Linear(16, 4)
det(model[2], seed=4)
optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
x = data(6, 8, seed=5)
t = ints(4, 6, seed=6)
losses = []
for _ in range(3):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), t)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
report(losses=losses, grads=[p.grad is None for p in model.parameters()], head=model[2].weight[0],
       rg=[p.requires_grad for p in model.parameters()])
