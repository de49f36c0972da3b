import io
import os
import torch
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(3, 5, bias=False), nn.BatchNorm1d(5), nn.ReLU(), nn.Linear(5, 2)))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
x, y = data(8, 3), data(8, 2, seed=3)
for _ in range(3):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
ckpt = {"epoch": 3, "model_state_dict": model.state_dict(), "optimizer_state_dict": opt.state_dict(), "scheduler": sched.state_dict(), "loss": loss.item()}
torch.save(ckpt, "checkpoint.pth")
buf = io.BytesIO()
torch.save(model, buf)
buf.seek(0)
whole = torch.load(buf, weights_only=False)
model2 = nn.Sequential(nn.Linear(3, 5, bias=False), nn.BatchNorm1d(5), nn.ReLU(), nn.Linear(5, 2))
opt2 = torch.optim.Adam(model2.parameters(), lr=1.0)
sched2 = torch.optim.lr_scheduler.StepLR(opt2, step_size=2, gamma=0.5)
c = torch.load("checkpoint.pth", map_location="cpu")
model2.load_state_dict(c["model_state_dict"]); opt2.load_state_dict(c["optimizer_state_dict"]); sched2.load_state_dict(c["scheduler"])
losses = []
for m, o, s in ((model, opt, sched), (model2, opt2, sched2)):
    l = nn.functional.mse_loss(m(x), y)
    o.zero_grad(); l.backward(); o.step(); s.step()
    losses.append(l.item())
st = opt.state_dict()
torch.save({"t": torch.arange(4), "view": torch.arange(10)[2:5]}, "t.pt")
t = torch.load("t.pt")
report(losses=losses, epoch=c["epoch"], lr=opt2.param_groups[0]["lr"], step=st["state"][0]["step"], keys=sorted(st["param_groups"][0].keys()),
       whole=type(whole).__name__, eq=torch.equal(whole[0].weight, model[0].weight) is False, rm=model2[1].running_mean, t=t["view"], size=os.path.getsize("t.pt") > 0,
       same=torch.allclose(model[3].weight, model2[3].weight))
