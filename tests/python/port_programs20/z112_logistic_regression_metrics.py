import torch
import torch.nn as nn

X = data(40, 3)
y = ((X[:, 0] - 0.5 * X[:, 1]) > 0).float().unsqueeze(1)
model = det(nn.Linear(3, 1))
crit = nn.BCEWithLogitsLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(30):
    opt.zero_grad()
    loss = crit(model(X), y)
    loss.backward()
    opt.step()
with torch.no_grad():
    prob = torch.sigmoid(model(X))
    pred = (prob >= 0.5).float()
    tp = ((pred == 1) & (y == 1)).sum().item()
    fp = ((pred == 1) & (y == 0)).sum().item()
    fn = ((pred == 0) & (y == 1)).sum().item()
    acc = (pred == y).float().mean().item()
precision = tp / max(tp + fp, 1)
recall = tp / max(tp + fn, 1)
report(loss=loss.item(), acc=acc, precision=precision, recall=recall, w=model.weight)
