import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(6, 16), nn.ReLU())
        self.heads = nn.ModuleDict({"cls": nn.Linear(16, 3), "reg": nn.Linear(16, 1), "multi": nn.Linear(16, 4)})
        self.log_vars = nn.Parameter(torch.zeros(3))

    def forward(self, x):
        h = self.trunk(x)
        return {k: head(h) for k, head in self.heads.items()}


m = MultiTask()
det(m.trunk)
det(m.heads, seed=1)
x = data(10, 6)
t_cls = ints(3, 10)
t_reg = data(10, 1, seed=4)
t_multi = (data(10, 4, seed=5) > 0).float()
opt = torch.optim.Adam(m.parameters(), lr=0.01)
hist = []
for step in range(4):
    out = m(x)
    losses = torch.stack([F.cross_entropy(out["cls"], t_cls), F.mse_loss(out["reg"], t_reg),
                          F.binary_cross_entropy_with_logits(out["multi"], t_multi)])
    total = (torch.exp(-m.log_vars) * losses + m.log_vars).sum()
    opt.zero_grad()
    total.backward()
    opt.step()
    hist.append([round(v, 5) for v in losses.tolist()])
per_head = {k: sum(p.numel() for p in h.parameters()) for k, h in m.heads.items()}
report(hist=hist, log_vars=m.log_vars, per_head=per_head, keys=list(m.heads.keys()), total=total)
