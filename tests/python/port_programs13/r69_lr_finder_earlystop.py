import copy
import math
import torch
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1)))
init_state = copy.deepcopy(model.state_dict())
opt = torch.optim.SGD(model.parameters(), lr=1e-4)
x, y = data(32, 3), data(32, 1, seed=3)
gamma = (1.0 / 1e-4) ** (1 / 9)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma)
lrs, smooth, avg = [], [], 0.0
for i in range(10):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    avg = 0.98 * avg + 0.02 * loss.item()
    smooth.append(avg / (1 - 0.98 ** (i + 1)))
    lrs.append(sched.get_last_lr()[0]); sched.step()
model.load_state_dict(init_state)
restored = torch.equal(model[0].weight, init_state["0.weight"])
class EarlyStopping:
    def __init__(self, patience=2, min_delta=0.0):
        self.patience, self.min_delta, self.best, self.count, self.best_state = patience, min_delta, math.inf, 0, None
    def __call__(self, val, model):
        if val < self.best - self.min_delta:
            self.best, self.count = val, 0
            self.best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
            return False
        self.count += 1
        return self.count >= self.patience
es = EarlyStopping()
opt2 = torch.optim.SGD(model.parameters(), lr=0.05)
stopped = None
for ep, val in enumerate([0.9, 0.8, 0.85, 0.7, 0.75, 0.8, 0.6]):
    nn.functional.mse_loss(model(x), y).backward(); opt2.step(); opt2.zero_grad()
    if es(val, model):
        stopped = ep; break
report(lrs=lrs, smooth=smooth, restored=restored, stopped=stopped, best=es.best, bs=es.best_state["2.bias"], is_clone=es.best_state["2.bias"] is not model[2].bias)
