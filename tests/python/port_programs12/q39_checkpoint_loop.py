import os
import torch
import torch.nn as nn
def build():
    torch.manual_seed(0)
    m = det(nn.Sequential(nn.Conv1d(2, 4, 3, padding=1), nn.GroupNorm(2, 4), nn.GELU(), nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(4, 2)), scale=0.4)
    o = torch.optim.AdamW(m.parameters(), lr=0.01, weight_decay=0.01)
    s = torch.optim.lr_scheduler.OneCycleLR(o, max_lr=0.05, total_steps=8)
    return m, o, s
x = data(6, 2, 5); y = torch.tensor([0, 1, 1, 0, 1, 0])
def epoch(m, o, s):
    o.zero_grad(); l = nn.functional.cross_entropy(m(x), y); l.backward(); o.step(); s.step(); return l.item()
m, o, s = build()
straight = [epoch(m, o, s) for _ in range(8)]
m, o, s = build()
first = [epoch(m, o, s) for _ in range(4)]
torch.save({"epoch": 4, "model_state_dict": m.state_dict(), "optimizer_state_dict": o.state_dict(), "scheduler": s.state_dict(), "loss": first[-1]}, "ckpt.pt")
del m, o, s
m, o, s = build()
checkpoint = torch.load("ckpt.pt")
m.load_state_dict(checkpoint["model_state_dict"]); o.load_state_dict(checkpoint["optimizer_state_dict"]); s.load_state_dict(checkpoint["scheduler"])
start = checkpoint["epoch"]
m.train()
rest = [epoch(m, o, s) for _ in range(start, 8)]
torch.save(m.state_dict(), "w.pth")
m2, _, _ = build(); m2.load_state_dict(torch.load("w.pth", weights_only=True)); m2.eval()
report(straight=straight, resumed=first + rest, same=max(abs(a - b) for a, b in zip(straight, first + rest)) < 1e-6, lr=o.param_groups[0]["lr"], exists=os.path.exists("ckpt.pt"),
       out=m2(x), ep=checkpoint["epoch"], ckloss=checkpoint["loss"], step=o.state_dict()["state"][0]["step"])
