# TOL 1e-3
import copy
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(0)
X = data(40, 6, seed=178)
w_true = data(6, 3, seed=179)
Y = (X @ w_true).argmax(1)
full = TensorDataset(X, Y)
train_ds, val_ds = torch.utils.data.Subset(full, range(32)), torch.utils.data.Subset(full, range(32, 40))
train_loader = DataLoader(train_ds, batch_size=8, shuffle=False, drop_last=True)
val_loader = DataLoader(val_ds, batch_size=16)
model = det(nn.Sequential(nn.Linear(6, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.0), nn.Linear(16, 3)), seed=180)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 3], gamma=0.1)
crit = nn.CrossEntropyLoss(label_smoothing=0.05)
best, best_state, history = 0.0, None, []
for epoch in range(4):
    model.train()
    tot = 0.0
    for xb, yb in train_loader:
        opt.zero_grad(set_to_none=True)
        loss = crit(model(xb), yb)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 2.0)
        opt.step()
        tot += loss.item() * xb.size(0)
    sched.step()
    model.eval()
    correct = 0
    with torch.no_grad():
        for xb, yb in val_loader:
            correct += (model(xb).argmax(1) == yb).sum().item()
    acc = correct / len(val_ds)
    history.append((round(tot / 32, 5), acc, opt.param_groups[0]["lr"]))
    if acc >= best:
        best, best_state = acc, copy.deepcopy(model.state_dict())
torch.save({"state": best_state, "best": best}, "best.pt")
ck = torch.load("best.pt")
model.load_state_dict(ck["state"])
report(history=history, best=ck["best"], rm=model[1].running_mean[:4], nbt=model[1].num_batches_tracked)
