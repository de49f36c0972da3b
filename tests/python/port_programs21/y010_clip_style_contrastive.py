import torch
import torch.nn as nn
import torch.nn.functional as F

img = det(nn.Linear(6, 4), seed=1)
txt = det(nn.Linear(5, 4), seed=2)
logit_scale = nn.Parameter(torch.ones([]) * 2.6592)
a = F.normalize(img(data(3, 6, seed=3)), dim=-1)
b = F.normalize(txt(data(3, 5, seed=4)), dim=-1)
logits = logit_scale.exp() * a @ b.T
labels = torch.arange(3)
loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels)) / 2
loss.backward()
cos = F.cosine_similarity(a.unsqueeze(1), b.unsqueeze(0), dim=-1)
report(loss=loss.item(), ls_grad=logit_scale.grad, cos=cos.detach(), pairwise=F.pairwise_distance(a, b).detach(),
       cdist=torch.cdist(a, b).detach())
