import torch
import torch.nn as nn
v = det(nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 2)), 0, 0.3)
opt = torch.optim.Adam(v.parameters(), lr=1e-2)
x1 = data(64, 2) * 0.3 + torch.tensor([2.0, -1.0])
L = []
for it in range(5):
    x0 = data(64, 2, seed=10 + it)
    t = torch.linspace(0, 1, 64).unsqueeze(1)
    xt = (1 - t) * x0 + t * x1
    loss = ((v(torch.cat([xt, t], 1)) - (x1 - x0)) ** 2).mean()
    opt.zero_grad(); loss.backward(); opt.step(); L.append(loss.item())
x = data(8, 2, seed=99)
n = 10
with torch.no_grad():
    for k in range(n):
        tk = torch.full((8, 1), k / n)
        x = x + v(torch.cat([x, tk], 1)) / n
report(L=L, x=x[:3], mean=x.mean(0))
