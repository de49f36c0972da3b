import torch
import torch.nn as nn


class MT(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(5, 8), nn.ReLU())
        self.cls = nn.Linear(8, 3)
        self.reg = nn.Linear(8, 1)

    def forward(self, x):
        h = self.trunk(x)
        return {"logits": self.cls(h), "value": self.reg(h).squeeze(-1)}


m = det(MT())
opt = torch.optim.Adam(m.parameters(), lr=0.01)
x, yc, yr = data(6, 5), ints(3, 6), data(6, seed=8)
w = {"cls": 1.0, "reg": 0.5}
hist = []
for _ in range(3):
    out = m(x)
    losses = {"cls": nn.functional.cross_entropy(out["logits"], yc, reduction="mean"),
              "reg": nn.functional.huber_loss(out["value"], yr, delta=0.5)}
    total = sum(w[k] * v for k, v in losses.items())
    opt.zero_grad()
    total.backward()
    opt.step()
    hist.append({k: v.item() for k, v in losses.items()})
report(hist=hist, total=total)
