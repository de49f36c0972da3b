import torch
import torch.nn as nn

x, y = data(16, 5), data(16, 1, seed=7)
m1 = det(nn.Sequential(nn.Linear(5, 4), nn.Tanh(), nn.Linear(4, 1)))
m2 = det(nn.Sequential(nn.Linear(5, 4), nn.Tanh(), nn.Linear(4, 1)))
o1 = torch.optim.SGD(m1.parameters(), lr=0.1)
o2 = torch.optim.SGD(m2.parameters(), lr=0.1)
accum = 4
for step in range(2):
    o1.zero_grad()
    nn.functional.mse_loss(m1(x), y).backward()
    o1.step()
    o2.zero_grad(set_to_none=True)
    for i, (xb, yb) in enumerate(zip(x.chunk(accum), y.chunk(accum))):
        loss = nn.functional.mse_loss(m2(xb), yb) / accum
        loss.backward()
    norm = nn.utils.clip_grad_norm_(m2.parameters(), max_norm=10.0)
    o2.step()
same = all(torch.allclose(a, b, atol=1e-6) for a, b in zip(m1.parameters(), m2.parameters()))
g_none = [p.grad is None for p in m2.parameters()]
o2.zero_grad()
g_after = [p.grad is None for p in m2.parameters()]
vals = nn.utils.clip_grad_value_([p for p in m1.parameters()], 0.01)
report(same=same, norm=norm.item(), g_none=g_none, g_after=g_after, w=m2[2].weight, clipped_max=max(p.grad.abs().max().item() for p in m1.parameters()))
