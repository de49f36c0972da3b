import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1)), seed=1)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, 1, gamma=0.9)
x, y = data(6, 3, seed=2), data(6, 1, seed=3)
for epoch in range(2):
    opt.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()
    sched.step()
torch.save({"epoch": epoch, "model_state_dict": model.state_dict(), "optimizer_state_dict": opt.state_dict(),
            "scheduler": sched.state_dict(), "loss": 0.5, "note": "ckpt"}, "ckpt.pt")
ck = torch.load("ckpt.pt")
model2 = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1))
opt2 = torch.optim.Adam(model2.parameters(), lr=0.01)
sched2 = torch.optim.lr_scheduler.StepLR(opt2, 1, gamma=0.9)
model2.load_state_dict(ck["model_state_dict"])
opt2.load_state_dict(ck["optimizer_state_dict"])
sched2.load_state_dict(ck["scheduler"])
start = ck["epoch"] + 1
for mm, oo, ss in ((model, opt, sched), (model2, opt2, sched2)):
    oo.zero_grad()
    nn.functional.mse_loss(mm(x), y).backward()
    oo.step()
    ss.step()
report(start=start, loss=ck["loss"], note=ck["note"], same=torch.equal(model[2].weight, model2[2].weight),
       lr=opt2.param_groups[0]["lr"], nbt=model2[1].num_batches_tracked, rv=model2[1].running_var,
       w=model2[2].weight.detach(), keys=sorted(ck.keys()))
