import torch
import torch.nn as nn
import torch.nn.functional as F


class SPP(nn.Module):
    def __init__(self, levels=(1, 2, 4)):
        super().__init__()
        self.levels = levels

    def forward(self, x):
        n = x.shape[0]
        return torch.cat([F.adaptive_max_pool2d(x, l).reshape(n, -1) for l in self.levels], dim=1)


feats = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU())
det(feats)
head = det(nn.Linear(4 * 21, 3), 2)
outs = []
for size in [(9, 9), (12, 7), (15, 15)]:
    x = data(2, 3, *size, seed=size[0])
    outs.append(head(SPP()(feats(x))))
report(outs=outs)
