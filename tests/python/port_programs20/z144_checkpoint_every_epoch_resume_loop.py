import os
import torch
import torch.nn as nn


def build():
    torch.manual_seed(0)
    m = det(nn.Sequential(nn.Linear(3, 5), nn.BatchNorm1d(5), nn.ReLU(), nn.Linear(5, 1)))
    o = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    s = torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=6)
    return m, o, s


X, Y = data(12, 3), data(12, 1, seed=6)


def run(epochs, resume=False):
    m, o, s = build()
    start = 0
    if resume and os.path.exists("last.pth"):
        ck = torch.load("last.pth", map_location="cpu")
        m.load_state_dict(ck["model"])
        o.load_state_dict(ck["optimizer"])
        s.load_state_dict(ck["scheduler"])
        start = ck["epoch"] + 1
    losses = []
    for epoch in range(start, epochs):
        m.train()
        for i in range(0, 12, 4):
            o.zero_grad()
            loss = nn.functional.mse_loss(m(X[i:i + 4]), Y[i:i + 4])
            loss.backward()
            o.step()
        s.step()
        losses.append(round(loss.item(), 6))
        torch.save({"epoch": epoch, "model": m.state_dict(), "optimizer": o.state_dict(), "scheduler": s.state_dict()}, "last.pth")
    return m, losses


full_m, full = run(6)
os.remove("last.pth")
run(3)
res_m, rest = run(6, resume=True)
report(full=full, rest=rest, same=torch.allclose(full_m[0].weight, res_m[0].weight, atol=1e-6), rm=res_m[1].running_mean)
