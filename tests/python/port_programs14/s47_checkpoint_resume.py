import os
import torch
import torch.nn as nn


def make():
    m = det(nn.Sequential(nn.Linear(3, 5), nn.BatchNorm1d(5), nn.ReLU(), nn.Linear(5, 1)))
    o = torch.optim.Adam(m.parameters(), lr=0.01)
    s = torch.optim.lr_scheduler.StepLR(o, 2, gamma=0.5)
    return m, o, s


x, y = data(8, 3), data(8, 1, seed=4)


def train(m, o, s, n):
    out = []
    for _ in range(n):
        o.zero_grad()
        loss = nn.functional.mse_loss(m(x), y)
        loss.backward()
        o.step()
        s.step()
        out.append(loss.item())
    return out


m, o, s = make()
a = train(m, o, s, 3)
torch.save({"epoch": 3, "model": m.state_dict(), "optim": o.state_dict(), "sched": s.state_dict(), "loss": a[-1]}, "ckpt.pt")
b = train(m, o, s, 3)
m2, o2, s2 = make()
ck = torch.load("ckpt.pt", map_location="cpu", weights_only=True)
m2.load_state_dict(ck["model"])
o2.load_state_dict(ck["optim"])
s2.load_state_dict(ck["sched"])
c = train(m2, o2, s2, 3)
missing = m2.load_state_dict({k: v for k, v in ck["model"].items() if "1." not in k}, strict=False)
report(a=a, b=b, c=c, epoch=ck["epoch"], lr=o2.param_groups[0]["lr"], missing=missing.missing_keys, unexpected=missing.unexpected_keys,
       sd_keys=list(ck["optim"].keys()), state_keys=sorted(ck["optim"]["state"][0].keys()), exists=os.path.exists("ckpt.pt"),
       nbt=ck["model"]["1.num_batches_tracked"])
