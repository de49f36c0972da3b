import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X = data(40, 4, seed=1)
Y = (X[:, 0] + X[:, 1] > 0).long()
train = TensorDataset(X[:32], Y[:32])
val = TensorDataset(X[32:], Y[32:])
model = det(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)), seed=2)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
sched = torch.optim.lr_scheduler.StepLR(opt, 2, 0.5)
crit = nn.CrossEntropyLoss()
log = []
for epoch in range(4):
    model.train()
    tot, n = 0.0, 0
    for xb, yb in DataLoader(train, batch_size=8):
        opt.zero_grad()
        loss = crit(model(xb), yb)
        loss.backward()
        opt.step()
        tot += loss.item() * xb.size(0)
        n += xb.size(0)
    sched.step()
    model.eval()
    correct = 0
    with torch.no_grad():
        for xb, yb in DataLoader(val, batch_size=4):
            correct += (model(xb).argmax(1) == yb).sum().item()
    log.append([round(tot / n, 5), correct / len(val), sched.get_last_lr()[0]])
conf = torch.zeros(2, 2, dtype=torch.long)
with torch.no_grad():
    pred = model(X).argmax(1)
conf.index_put_((Y, pred), torch.ones_like(Y), accumulate=True)
report(log=log, conf=conf, acc=(pred == Y).float().mean().item())
