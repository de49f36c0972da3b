import torch
import torch.nn.functional as F

emb = F.normalize(data(8, 3), dim=1)
labels = torch.tensor([0, 0, 1, 1, 1, 2, 2, 0])
d = torch.cdist(emb, emb)
same = labels[:, None] == labels[None, :]
eye = torch.eye(8, dtype=torch.bool)
pos_mask = same & ~eye
neg_mask = ~same
a, p, n = torch.where(pos_mask[:, :, None] & neg_mask[:, None, :])
margin = 0.3
losses = F.relu(d[a, p] - d[a, n] + margin)
valid = losses > 1e-16
batch_all = losses[valid].mean()
frac = valid.float().mean()
lifted = torch.log(torch.exp(margin - d).mul(neg_mask).sum(1))
report(n_triplets=a.numel(), n_valid=valid.sum().item(), batch_all=batch_all.item(), frac=frac.item(), first=[a[:5], p[:5], n[:5]], lifted=lifted)
