import copy
import torch
import torch.nn as nn

q = det(nn.Sequential(nn.Linear(4, 12), nn.ReLU(), nn.Linear(12, 2)))
target = copy.deepcopy(q)
for p in target.parameters():
    p.requires_grad_(False)
opt = torch.optim.RMSprop(q.parameters(), lr=1e-3)
s, s2 = data(8, 4, seed=1), data(8, 4, seed=2)
a = ints(2, 8)
r = data(8, seed=3)
done = torch.tensor([0, 0, 1, 0, 0, 1, 0, 0], dtype=torch.bool)
hist = []
for step in range(3):
    qsa = q(s).gather(1, a.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        best = q(s2).argmax(1, keepdim=True)
        nxt = target(s2).gather(1, best).squeeze(1)
        y = r + 0.99 * nxt * (~done)
    loss = nn.functional.smooth_l1_loss(qsa, y)
    opt.zero_grad()
    loss.backward()
    for p in q.parameters():
        p.grad.data.clamp_(-1, 1)
    opt.step()
    tau = 0.5
    with torch.no_grad():
        for tp, sp in zip(target.parameters(), q.parameters()):
            tp.mul_(1 - tau).add_(tau * sp)
    hist.append(loss.item())
eps = torch.tensor([0.1])
report(hist=hist, y=y, tw=target[0].bias[:3], rg=target[0].weight.requires_grad, ydt=y.dtype)
