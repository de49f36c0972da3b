import torch
import torch.nn.functional as F

# SSD-style hard negative mining at 3:1
conf = data(2, 10, 3, scale=2.0)
labels = torch.tensor([[0, 1, 0, 0, 2, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 2, 0, 0]])
loss_all = F.cross_entropy(conf.view(-1, 3), labels.view(-1), reduction="none").view(2, 10)
pos = labels > 0
num_pos = pos.sum(1, keepdim=True)
neg_loss = loss_all.clone()
neg_loss[pos] = 0
_, idx = neg_loss.sort(1, descending=True)
_, rank = idx.sort(1)
num_neg = torch.clamp(3 * num_pos, max=pos.size(1) - 1)
neg = rank < num_neg
final = loss_all[pos | neg].sum() / num_pos.sum()
# semi-hard negatives in an embedding batch
e = F.normalize(data(6, 3, seed=8), dim=1)
lab = torch.tensor([0, 0, 1, 1, 2, 2])
sim = e @ e.T
d_ap = torch.tensor([sim[0, 1], sim[1, 0], sim[2, 3], sim[3, 2], sim[4, 5], sim[5, 4]])
neg_mask = lab[:, None] != lab[None, :]
semi = neg_mask & (sim < d_ap[:, None]) & (sim > d_ap[:, None] - 0.5)
report(neg=neg, num_neg=num_neg.squeeze(1), final=final.item(), semi=semi, n_semi=semi.sum(1))
