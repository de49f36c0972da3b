import io
import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1)))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, 0.9)
x, y = data(6, 3), data(6, 1, seed=3)
for _ in range(2):
    loss = ((model(x) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
buf = io.BytesIO()
torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "epoch": 2, "losses": [1.5, 0.5]}, buf)
buf.seek(0)
ck = torch.load(buf)
m2 = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1))
m2.load_state_dict(ck["model"])
o2 = torch.optim.Adam(m2.parameters(), lr=1.0)
o2.load_state_dict(ck["opt"])
s2 = torch.optim.lr_scheduler.ExponentialLR(o2, 0.5)
s2.load_state_dict(ck["sched"])
for mdl, op, sc in ((model, opt, sched), (m2, o2, s2)):
    loss = ((mdl(x) - y) ** 2).mean()
    op.zero_grad()
    loss.backward()
    op.step()
    sc.step()
report(same=torch.allclose(model[0].weight, m2[0].weight), lr=o2.param_groups[0]["lr"], epoch=ck["epoch"], losses=ck["losses"],
       step=o2.state_dict()["state"][0]["step"], keys=sorted(ck["opt"]["param_groups"][0].keys())[:6], gamma=s2.gamma, w=m2[2].weight.detach())
