import os
import torch
import torch.nn as nn


def make():
    m = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2))
    det(m)
    o = torch.optim.Adam(m.parameters(), lr=0.01)
    s = torch.optim.lr_scheduler.StepLR(o, 2, gamma=0.5)
    return m, o, s


def train_steps(m, o, s, start, n):
    out = []
    for step in range(start, start + n):
        x = data(6, 4, seed=step)
        y = ints(2, 6, seed=step)
        loss = nn.functional.cross_entropy(m(x), y)
        o.zero_grad()
        loss.backward()
        o.step()
        s.step()
        out.append(loss.item())
    return out


m, o, s = make()
full = train_steps(m, o, s, 0, 6)
m, o, s = make()
first = train_steps(m, o, s, 0, 3)
torch.save({"epoch": 3, "model_state_dict": m.state_dict(), "optimizer_state_dict": o.state_dict(),
            "scheduler": s.state_dict(), "loss": first[-1]}, "ckpt.pt")
m2, o2, s2 = make()
ck = torch.load("ckpt.pt", weights_only=True)
m2.load_state_dict(ck["model_state_dict"])
o2.load_state_dict(ck["optimizer_state_dict"])
s2.load_state_dict(ck["scheduler"])
rest = train_steps(m2, o2, s2, ck["epoch"], 3)
report(full=full, resumed=first + rest, same=[abs(a - b) < 1e-6 for a, b in zip(full, first + rest)],
       epoch=ck["epoch"], keys=list(ck["optimizer_state_dict"].keys()), pg=ck["optimizer_state_dict"]["param_groups"][0]["params"],
       step=o2.state_dict()["state"][0]["step"], exists=os.path.exists("ckpt.pt"), lr=o2.param_groups[0]["lr"])
