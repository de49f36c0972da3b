import torch
import torch.nn as nn

emb = data(6, 4, seed=3)
labels = torch.tensor([0, 0, 1, 1, 2, 2])
d = torch.cdist(emb, emb)
same = labels[:, None] == labels[None, :]
eye = torch.eye(6, dtype=torch.bool)
hardest_pos = d.masked_fill(~same | eye, 0).max(1).values
hardest_neg = d.masked_fill(same, float("inf")).min(1).values
loss = torch.relu(hardest_pos - hardest_neg + 0.5).mean()
tl = nn.TripletMarginLoss(margin=0.5)(emb[[0, 2]], emb[[1, 3]], emb[[4, 5]])
cel = nn.CosineEmbeddingLoss(margin=0.1)(emb[:3], emb[3:], torch.tensor([1, -1, 1]))
report(hp=hardest_pos, hn=hardest_neg, loss=loss, tl=tl, cel=cel)
