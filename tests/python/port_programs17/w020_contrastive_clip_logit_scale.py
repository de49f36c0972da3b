import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

img = nn.Linear(6, 4)
txt = nn.Linear(5, 4)
det(img, seed=1)
det(txt, seed=2)
logit_scale = nn.Parameter(torch.ones([]) * np.log(1 / 0.07))
opt = torch.optim.AdamW(list(img.parameters()) + list(txt.parameters()) + [logit_scale], lr=0.05, weight_decay=0.2)
xi, xt = data(5, 6, seed=3), data(5, 5, seed=4)
losses = []
for _ in range(4):
    a = F.normalize(img(xi), dim=-1)
    b = F.normalize(txt(xt), dim=-1)
    ls = logit_scale.exp()
    lg = ls * a @ b.t()
    lab = torch.arange(5)
    loss = (F.cross_entropy(lg, lab) + F.cross_entropy(lg.t(), lab)) / 2
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        logit_scale.clamp_(0, 4.6052)
    losses.append(loss.item())
report(losses=losses, scale=logit_scale, w=img.weight[0])
