import time
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

model = det(nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 1)))
loader = DataLoader(TensorDataset(data(20, 3), data(20, 1, seed=9)), batch_size=8)
opt = torch.optim.Adam(model.parameters(), lr=5e-3, weight_decay=1e-4)
history = {"loss": [], "lr": []}
start = time.time()
for epoch in range(2):
    running, n = 0.0, 0
    for step, (xb, yb) in enumerate(loader, 1):
        pred = model(xb)
        loss = nn.functional.mse_loss(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.detach() * xb.size(0)
        n += xb.size(0)
    history["loss"].append((running / n).item())
    history["lr"].append(opt.param_groups[0]["lr"])
    msg = f"epoch {epoch + 1}: loss={history['loss'][-1]:.4f} lr={history['lr'][-1]:.0e}"
report(history=history, msg=msg, elapsed_ok=time.time() - start >= 0, steps=step)
