import torch
import torch.nn as nn

m = det(nn.Linear(2, 2))
inner = torch.optim.Adam(m.parameters(), lr=0.1)
slow = [p.detach().clone() for p in m.parameters()]
k, alpha = 2, 0.5
x, y = data(4, 2, seed=1), data(4, 2, seed=2)
for step in range(1, 5):
    inner.zero_grad()
    nn.functional.mse_loss(m(x), y).backward()
    inner.step()
    if step % k == 0:
        with torch.no_grad():
            for p, s in zip(m.parameters(), slow):
                s.add_(p - s, alpha=alpha)
                p.copy_(s)
report(w=m.weight, slow=slow[1])
