import io
import torch
import torch.nn as nn


def make():
    m = det(nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 1)))
    o = torch.optim.Adam(m.parameters(), lr=0.05)
    s = torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=6, eta_min=0.001)
    return m, o, s


x, y = data(10, 3), data(10, 1, seed=3)


def train(m, o, s, steps):
    out = []
    for _ in range(steps):
        loss = nn.functional.mse_loss(m(x), y)
        o.zero_grad(); loss.backward(); o.step(); s.step()
        out.append(loss.item())
    return out


m, o, s = make()
full = train(m, o, s, 6)
m2, o2, s2 = make()
first = train(m2, o2, s2, 3)
buf = io.BytesIO()
torch.save({"model": m2.state_dict(), "optim": o2.state_dict(), "sched": s2.state_dict(), "epoch": 3}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
m3, o3, s3 = make()
m3.load_state_dict(ck["model"]); o3.load_state_dict(ck["optim"]); s3.load_state_dict(ck["sched"])
rest = train(m3, o3, s3, 3)
report(full=full, resumed=first + rest, same=torch.allclose(m[0].weight, m3[0].weight), step=o3.state_dict()["state"][0]["step"],
       lr=s3.get_last_lr(), epoch=ck["epoch"], keys=sorted(ck["optim"]["param_groups"][0].keys()))
