import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(2, 3), nn.LayerNorm(3), nn.Linear(3, 1)))
decay, no_decay = [], []
for name, p in m.named_parameters():
    (no_decay if name.endswith("bias") or "1." in name else decay).append(p)
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}], lr=0.01)
x = data(4, 2)
for _ in range(3):
    opt.zero_grad()
    m(x).pow(2).mean().backward()
    opt.step()
o2 = torch.optim.Adam(m.named_parameters(), lr=0.01)
pn = o2.param_groups[0].get("param_names")
report(nd=len(decay), nn_=len(no_decay), w=m[0].weight, ln=m[1].weight, wd=[g["weight_decay"] for g in opt.param_groups], pn=pn)
