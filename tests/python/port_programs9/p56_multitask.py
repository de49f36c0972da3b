import torch
import torch.nn as nn
class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(5, 8), nn.SiLU())
        self.heads = nn.ModuleDict({"cls": nn.Linear(8, 3), "reg": nn.Linear(8, 1), "bin": nn.Linear(8, 1)})
        self.log_vars = nn.Parameter(torch.zeros(3))
    def forward(self, x):
        h = self.trunk(x)
        return {k: head(h) for k, head in self.heads.items()}
m = det(MultiTask())
x = data(6, 5); yc = ints(3, 6); yr = data(6, 1, seed=4); yb = (data(6, 1, seed=5) > 0).float()
opt = torch.optim.Adam(m.parameters(), lr=0.01)
pos_weight = torch.tensor([2.0])
hist = []
for _ in range(3):
    out = m(x)
    losses = {"cls": nn.functional.cross_entropy(out["cls"], yc), "reg": nn.functional.smooth_l1_loss(out["reg"], yr, beta=0.5),
              "bin": nn.functional.binary_cross_entropy_with_logits(out["bin"], yb, pos_weight=pos_weight)}
    stacked = torch.stack(list(losses.values()))
    total = (torch.exp(-m.log_vars) * stacked + m.log_vars).sum()
    opt.zero_grad(); total.backward(); opt.step()
    hist.append({k: v.item() for k, v in losses.items()})
p = torch.sigmoid(out["bin"])
pt = torch.where(yb == 1, p, 1 - p)
focal = (-(1 - pt) ** 2 * torch.log(pt.clamp(min=1e-8))).mean()
report(hist=hist, lv=m.log_vars, keys=list(m.heads.keys()), focal=focal, sd=list(m.state_dict().keys()))
