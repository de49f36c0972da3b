import io, os, tempfile, copy
import torch
import torch.nn as nn
def make():
    m = det(nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1)))
    o = torch.optim.Adam(m.parameters(), lr=0.01)
    s = torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.9)
    return m, o, s
x = data(16, 5); y = data(16, 1, seed=7)
def train(m, o, s, steps):
    out = []
    for _ in range(steps):
        o.zero_grad(); loss = nn.functional.mse_loss(m(x), y); loss.backward(); o.step(); s.step(); out.append(loss.item())
    return out
m, o, s = make()
full = train(m, o, s, 6)
m, o, s = make()
first = train(m, o, s, 3)
path = os.path.join(tempfile.mkdtemp(), "ckpt.pth")
torch.save({"epoch": 3, "model_state_dict": m.state_dict(), "optimizer_state_dict": o.state_dict(),
            "scheduler": s.state_dict(), "loss": first[-1]}, path)
m2, o2, s2 = make()
with torch.no_grad():
    for p in m2.parameters(): p.zero_()
checkpoint = torch.load(path, map_location="cpu", weights_only=False)
m2.load_state_dict(checkpoint["model_state_dict"])
o2.load_state_dict(checkpoint["optimizer_state_dict"])
s2.load_state_dict(checkpoint["scheduler"])
rest = train(m2, o2, s2, 3)
buf = io.BytesIO(); torch.save(m2.state_dict(), buf); buf.seek(0)
sd = torch.load(buf)
m3 = copy.deepcopy(m2)
report(full=full, resumed=first + rest, epoch=checkpoint["epoch"], lr=o2.param_groups[0]["lr"], keys=list(sd.keys()),
       step=o2.state_dict()["state"][0]["step"], same=torch.equal(m3[0].weight, m2[0].weight), deep=m3[0].weight is m2[0].weight,
       pg=sorted(k for k in o2.state_dict()["param_groups"][0].keys() if k in ("lr", "betas", "eps", "weight_decay", "amsgrad", "params", "initial_lr")))
