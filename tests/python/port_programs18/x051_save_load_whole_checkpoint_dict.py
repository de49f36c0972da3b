import io
import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2)))
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
x = data(5, 3, seed=2)
m(x).sum().backward()
opt.step()
buf = io.BytesIO()
torch.save({"epoch": 3, "model_state_dict": m.state_dict(), "optimizer_state_dict": opt.state_dict(),
            "loss": 0.25, "extra": [torch.arange(3), {"k": torch.ones(2)}]}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
m2 = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
m2.load_state_dict(ck["model_state_dict"])
opt2 = torch.optim.SGD(m2.parameters(), lr=0.5)
opt2.load_state_dict(ck["optimizer_state_dict"])
m2.eval(), m.eval()
report(epoch=ck["epoch"], loss=ck["loss"], same=torch.equal(m(x), m2(x)), lr=opt2.param_groups[0]["lr"],
       mom=opt2.state_dict()["state"][0]["momentum_buffer"][0], extra=ck["extra"], keys=sorted(ck["optimizer_state_dict"]["param_groups"][0].keys()))
