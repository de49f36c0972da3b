import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

img_proj = det(nn.Linear(5, 4, bias=False), seed=103)
txt_proj = det(nn.Linear(6, 4, bias=False), seed=104)
logit_scale = nn.Parameter(torch.ones([]) * np.log(1 / 0.07))
params = list(img_proj.parameters()) + list(txt_proj.parameters()) + [logit_scale]
opt = torch.optim.AdamW(params, lr=0.05)
imgs, txts = data(6, 5, seed=105), data(6, 6, seed=106)
ls = []
for _ in range(3):
    i = img_proj(imgs)
    t = txt_proj(txts)
    i = i / i.norm(dim=1, keepdim=True)
    t = t / t.norm(dim=1, keepdim=True)
    scale = logit_scale.exp()
    logits_per_image = scale * i @ t.t()
    logits_per_text = logits_per_image.t()
    labels = torch.arange(6)
    loss = (F.cross_entropy(logits_per_image, labels) + F.cross_entropy(logits_per_text, labels)) / 2
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        logit_scale.clamp_(0, math.log(100))
    ls.append(loss.item())
report(ls=ls, scale=logit_scale, shape=logit_scale.shape, dtype=logit_scale.dtype, init=float(np.log(1 / 0.07)))
