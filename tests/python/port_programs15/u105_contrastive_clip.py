import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class CLIP(nn.Module):
    def __init__(self):
        super().__init__()
        self.img = nn.Sequential(nn.Conv2d(3, 4, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 6))
        self.txt_emb = nn.Embedding(20, 6)
        self.txt = nn.GRU(6, 6, batch_first=True)
        self.logit_scale = nn.Parameter(torch.ones([]) * np.log(1 / 0.07))

    def forward(self, images, tokens):
        i = F.normalize(self.img(images), dim=-1)
        _, h = self.txt(self.txt_emb(tokens))
        t = F.normalize(h[-1], dim=-1)
        scale = self.logit_scale.exp().clamp(max=100)
        logits = scale * i @ t.t()
        return logits, logits.t()


m = CLIP()
for part in (m.img, m.txt_emb, m.txt):
    det(part, scale=0.3)
imgs = data(4, 3, 7, 7)
toks = ints(20, 4, 5)
labels = torch.arange(4)
opt = torch.optim.AdamW(m.parameters(), lr=1e-3, weight_decay=0.2)
hist = []
for _ in range(3):
    li, lt = m(imgs, toks)
    loss = (F.cross_entropy(li, labels) + F.cross_entropy(lt, labels)) / 2
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
acc = (li.argmax(-1) == labels).float().mean()
report(hist=hist, acc=acc, scale=m.logit_scale, li=li[0])
