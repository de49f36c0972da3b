import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(5, 3)
        self.body = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Linear(4, 2))

    def forward(self, x, i):
        return self.body(x + self.emb(i))


m = det(Net())
decay, no_decay = [], []
for n, p in m.named_parameters():
    if not p.requires_grad:
        continue
    (no_decay if p.ndim < 2 or "norm" in n.lower() or n.endswith(".bias") else decay).append(n)
params = dict(m.named_parameters())
groups = [{"params": [params[n] for n in decay], "weight_decay": 0.1},
          {"params": [params[n] for n in no_decay], "weight_decay": 0.0, "lr": 0.05}]
opt = torch.optim.AdamW(groups, lr=0.01, betas=(0.9, 0.95))
x = data(4, 3, seed=1)
for _ in range(2):
    loss = m(x, torch.tensor([0, 1, 2, 3])).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
report(decay=decay, no_decay=no_decay, w=m.body[0].weight[0], b=m.body[1].bias,
       wd=[g["weight_decay"] for g in opt.param_groups], lr=[g["lr"] for g in opt.param_groups],
       state_steps=[opt.state[p]["step"].item() for p in groups[0]["params"][:1]])
