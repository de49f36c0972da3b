import io
import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3)))
opt = torch.optim.Adam(m.parameters(), lr=0.01)
m(data(4, 2)).sum().backward()
opt.step()
with open("ck.tar", "wb") as f:
    torch.save({"model": m.state_dict(), "opt": opt.state_dict(), "meta": {"epoch": 7, "name": "run1"}}, f)
with open("ck.tar", "rb") as f:
    ck = torch.load(f, map_location=lambda storage, loc: storage)
buf = io.BytesIO()
torch.save(ck["model"], buf)
sd = torch.load(io.BytesIO(buf.getvalue()), map_location=torch.device("cpu"))
m2 = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
m2.load_state_dict(sd)
o2 = torch.optim.Adam(m2.parameters(), lr=0.5)
o2.load_state_dict(ck["opt"])
report(meta=ck["meta"], same=torch.equal(m2[0].weight, m[0].weight), lr=o2.param_groups[0]["lr"], step=o2.state_dict()["state"][0]["step"],
       rm=m2[1].running_mean, keys=sorted(ck.keys()))
