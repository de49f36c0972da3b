import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
X = data(40, 5); Y = (X[:, 0] + X[:, 1] > 0).long()
ds = TensorDataset(X, Y)
loader = DataLoader(ds, batch_size=16, shuffle=False, num_workers=0, pin_memory=False, drop_last=False)
model = det(nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 2)))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, "max", patience=0, factor=0.5)
history = {"train_loss": [], "val_acc": [], "lr": []}
best_acc, best_state = -1, None
for epoch in range(4):
    model.train(); running = 0.0
    for xb, yb in loader:
        opt.zero_grad(set_to_none=True)
        logits = model(xb)
        loss = nn.functional.cross_entropy(logits, yb)
        loss.backward(); opt.step()
        running += loss.item() * xb.size(0)
    model.eval(); correct = total = 0
    with torch.no_grad():
        for xb, yb in loader:
            preds = model(xb).argmax(dim=1)
            correct += (preds == yb).sum().item(); total += yb.numel()
    acc = correct / total
    sched.step(acc)
    history["train_loss"].append(running / len(loader.dataset)); history["val_acc"].append(acc); history["lr"].append(opt.param_groups[0]["lr"])
    if acc > best_acc:
        best_acc = acc
        best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
model.load_state_dict(best_state)
probs = torch.softmax(model(X[:4]), dim=-1)
report(history=history, best=best_acc, probs=probs, n=len(loader), last_bs=[len(b[0]) for b in loader][-1])
