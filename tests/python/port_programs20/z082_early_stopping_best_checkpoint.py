import copy
import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(2, 6), nn.ReLU(), nn.Linear(6, 1)))
opt = torch.optim.Adam(m.parameters(), lr=0.05)
Xtr, Xva = data(20, 2), data(8, 2, seed=5)
f = lambda X: (X[:, :1] - X[:, 1:]).sin()
Ytr, Yva = f(Xtr), f(Xva)
best, best_state, bad, patience, hist = float("inf"), None, 0, 2, []
for epoch in range(30):
    m.train()
    opt.zero_grad()
    nn.functional.mse_loss(m(Xtr), Ytr).backward()
    opt.step()
    m.eval()
    with torch.no_grad():
        val = nn.functional.mse_loss(m(Xva), Yva).item()
    hist.append(val)
    if val < best - 1e-4:
        best, bad = val, 0
        best_state = copy.deepcopy(m.state_dict())
        torch.save(best_state, "best.pt")
    else:
        bad += 1
        if bad >= patience:
            break
m.load_state_dict(torch.load("best.pt"))
with torch.no_grad():
    final = nn.functional.mse_loss(m(Xva), Yva).item()
report(epoch=epoch, best=best, final=final, hist=hist)
