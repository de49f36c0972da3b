import torch
import torch.nn as nn
import torch.nn.functional as F


def make():
    m = det(nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 1)))
    o = torch.optim.AdamW(m.parameters(), lr=0.01, weight_decay=0.1)
    s = torch.optim.lr_scheduler.StepLR(o, step_size=2, gamma=0.5)
    return m, o, s


x, y = data(10, 3), data(10, 1, seed=3)


def train(m, o, s, steps):
    out = []
    for _ in range(steps):
        o.zero_grad()
        loss = F.mse_loss(m(x), y)
        loss.backward()
        o.step()
        s.step()
        out.append(loss.item())
    return out


m1, o1, s1 = make()
full = train(m1, o1, s1, 6)
m2, o2, s2 = make()
first = train(m2, o2, s2, 3)
torch.save({"epoch": 3, "model_state_dict": m2.state_dict(), "optimizer_state_dict": o2.state_dict(),
            "scheduler": s2.state_dict(), "loss": first[-1]}, "ckpt.pt")
m3, o3, s3 = make()
ck = torch.load("ckpt.pt")
m3.load_state_dict(ck["model_state_dict"])
o3.load_state_dict(ck["optimizer_state_dict"])
s3.load_state_dict(ck["scheduler"])
rest = train(m3, o3, s3, 3)
report(full=full, resumed=first + rest, epoch=ck["epoch"], lr=o3.param_groups[0]["lr"], last_lr=s3.get_last_lr(),
       step=o3.state_dict()["state"][0]["step"], same=torch.equal(m1[0].weight, m3[0].weight),
       keys=sorted(ck["optimizer_state_dict"]["param_groups"][0].keys()))
