import copy
import math
import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(5, 12), nn.ReLU(), nn.Linear(12, 1)))
init_state = copy.deepcopy(model.state_dict())
X, Y = data(32, 5), data(32, 1, seed=7)
opt = torch.optim.SGD(model.parameters(), lr=1e-4)
start, end, steps = 1e-4, 1.0, 12
gamma = (end / start) ** (1 / (steps - 1))
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma)
lrs, losses, avg, best = [], [], 0.0, math.inf
for i in range(steps):
    xb, yb = X[(i * 8) % 32:(i * 8) % 32 + 8], Y[(i * 8) % 32:(i * 8) % 32 + 8]
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(xb), yb)
    loss.backward()
    opt.step()
    avg = 0.9 * avg + 0.1 * loss.item()
    smooth = avg / (1 - 0.9 ** (i + 1))
    lrs.append(opt.param_groups[0]["lr"])
    losses.append(smooth)
    best = min(best, smooth)
    if smooth > 4 * best:
        break
    sched.step()
model.load_state_dict(init_state)
restored = torch.equal(model[0].weight, init_state["0.weight"])


class EarlyStopping:
    def __init__(self, patience=2, min_delta=1e-3):
        self.patience, self.min_delta = patience, min_delta
        self.best, self.count, self.best_state = None, 0, None

    def __call__(self, val, model):
        if self.best is None or val < self.best - self.min_delta:
            self.best, self.count = val, 0
            self.best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
            return False
        self.count += 1
        return self.count >= self.patience


es = EarlyStopping()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
vals = []
for epoch in range(20):
    opt.zero_grad()
    nn.functional.mse_loss(model(X[:24]), Y[:24]).backward()
    opt.step()
    with torch.no_grad():
        v = nn.functional.mse_loss(model(X[24:]), Y[24:]).item()
    vals.append(round(v, 5))
    if es(v, model):
        break
model.load_state_dict(es.best_state)
report(lrs=lrs, losses=losses, restored=restored, vals=vals, stopped=epoch, best=es.best,
       final=nn.functional.mse_loss(model(X[24:]), Y[24:]).item())
