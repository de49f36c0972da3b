import copy
import torch
import torch.nn as nn

m = det(nn.Linear(2, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.3)
x, y = data(10, 2, seed=1), data(10, 1, seed=2)
xv, yv = data(5, 2, seed=3), data(5, 1, seed=4)
best, best_state, bad, patience, hist = float("inf"), None, 0, 2, []
for ep in range(20):
    m.train()
    loss = nn.functional.mse_loss(m(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    m.eval()
    with torch.no_grad():
        v = nn.functional.mse_loss(m(xv), yv).item()
    hist.append(round(v, 5))
    if v < best - 1e-4:
        best, bad, best_state = v, 0, copy.deepcopy(m.state_dict())
    else:
        bad += 1
        if bad >= patience:
            break
m.load_state_dict(best_state)
report(hist=hist, stopped=ep, best=best, w=m.weight)
