import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
X, Y = data(8, 4, seed=1), ints(2, 8, seed=2)
accum = 4
norms, losses = [], []
for step, (xb, yb) in enumerate(zip(X.split(2), Y.split(2))):
    loss = nn.functional.cross_entropy(m(xb), yb) / accum
    loss.backward()
    losses.append(loss.item())
    if (step + 1) % accum == 0:
        norms.append(nn.utils.clip_grad_norm_(m.parameters(), max_norm=0.5))
        opt.step()
        opt.zero_grad()
full = m(X)
report(losses=losses, norms=norms, full=full[:3], grads_none=all(p.grad is None for p in m.parameters()))
