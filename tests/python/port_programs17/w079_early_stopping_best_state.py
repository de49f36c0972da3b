import copy
import torch
import torch.nn as nn

m = det(nn.Linear(2, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.5)
x, y = data(10, 2, seed=1), data(10, 1, seed=2)
xv, yv = data(5, 2, seed=3), data(5, 1, seed=4)
best, best_state, bad, hist = float("inf"), None, 0, []
for ep in range(20):
    m.train()
    loss = nn.functional.mse_loss(m(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    m.eval()
    with torch.no_grad():
        v = nn.functional.mse_loss(m(xv), yv).item()
    hist.append(v)
    if v < best - 1e-4:
        best, bad = v, 0
        best_state = copy.deepcopy(m.state_dict())
    else:
        bad += 1
        if bad >= 2:
            break
m.load_state_dict(best_state)
report(hist=hist, best=best, ep=ep, w=m.weight)
