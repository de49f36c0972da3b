import torch
import torch.nn as nn
import torch.nn.functional as F


class Clip(nn.Module):
    def __init__(self):
        super().__init__()
        self.img = nn.Linear(6, 4)
        self.txt = nn.Linear(5, 4)
        self.logit_scale = nn.Parameter(torch.ones([]) * torch.log(torch.tensor(1 / 0.07)))

    def forward(self, i, t):
        a = F.normalize(self.img(i), dim=-1)
        b = F.normalize(self.txt(t), dim=-1)
        s = self.logit_scale.exp().clamp(max=100)
        return s * a @ b.t()


m = Clip()
det(m.img, seed=0), det(m.txt, seed=1)
with torch.no_grad():
    m.logit_scale.fill_(torch.log(torch.tensor(1 / 0.07)).item())
opt = torch.optim.AdamW(m.parameters(), lr=1e-2, weight_decay=0.1)
i, t = data(4, 6, seed=1), data(4, 5, seed=2)
labels = torch.arange(4)
losses = []
for _ in range(3):
    logits = m(i, t)
    loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(round(loss.item(), 5))
report(losses=losses, scale=m.logit_scale, acc=(m(i, t).argmax(1) == labels).float().mean())
