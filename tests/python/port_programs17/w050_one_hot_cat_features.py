import torch
import torch.nn as nn
import torch.nn.functional as F

cats = torch.tensor([[0, 2, 1], [1, 0, 3], [2, 1, 0], [0, 0, 2]])
cards = [3, 3, 4]
oh = torch.cat([F.one_hot(cats[:, i], num_classes=c) for i, c in enumerate(cards)], dim=1)
oh_auto = F.one_hot(cats[:, 2])
num = data(4, 2, seed=1)
x = torch.cat([oh.float(), num], 1)
mlp = det(nn.Sequential(nn.Linear(12, 5), nn.ReLU(), nn.Linear(5, 1)))
y = mlp(x).squeeze(-1)
target = torch.tensor([1.0, 0.0, 1.0, 0.0])
loss = F.binary_cross_entropy_with_logits(y, target)
loss.backward()
report(oh=oh, dt=oh.dtype, auto=list(oh_auto.shape), y=y, loss=loss, g=mlp[0].weight.grad[0])
