import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Embedding(5, 4), nn.LayerNorm(4), nn.Linear(4, 2)))
decay, no_decay = [], []
for n, p in m.named_parameters():
    (no_decay if p.ndim < 2 or "norm" in n or n.endswith(".bias") else decay).append(p)
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0, "lr": 0.01}], lr=0.05, betas=(0.9, 0.95))
idx = torch.tensor([[0, 1], [2, 3]])
for _ in range(3):
    loss = m(idx).logsumexp(-1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
opt.param_groups[0]["lr"] *= 0.5
sd = opt.state_dict()
report(n=[len(decay), len(no_decay)], w=m[2].weight, ln=m[1].weight, groups=[(g["lr"], g["weight_decay"], g["params"]) for g in sd["param_groups"]],
       step=sd["state"][0]["step"], es=sd["state"][0]["exp_avg_sq"][0])
