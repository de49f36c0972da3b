import torch
import torch.nn as nn
import torch.nn.functional as F

feats = data(8, 3)
labels = torch.tensor([0, 1, 2, 0, 1, 2, 0, 1])
centers = nn.Parameter(torch.zeros(3, 3))
# center loss with its own optimizer and alpha scaling
copt = torch.optim.SGD([centers], lr=0.5)
hist = []
for _ in range(4):
    batch_centers = centers[labels]
    loss = 0.5 * ((feats - batch_centers) ** 2).sum(1).mean()
    copt.zero_grad(); loss.backward(); copt.step(); hist.append(loss.item())
# proxy NCA
proxies = F.normalize(data(3, 3, seed=5), dim=1)
D = torch.cdist(F.normalize(feats, dim=1) * 3, proxies * 3) ** 2
P = F.one_hot(labels, 3).float()
pnca = torch.sum(-P * F.log_softmax(-D, -1), -1).mean()
# class means via index_add
sums = torch.zeros(3, 3).index_add(0, labels, feats)
counts = torch.bincount(labels).unsqueeze(1)
report(hist=hist, centers=centers, pnca=pnca.item(), means=sums / counts, grad=centers.grad)
