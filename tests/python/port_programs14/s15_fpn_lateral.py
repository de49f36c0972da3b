import torch
import torch.nn as nn
import torch.nn.functional as F


class FPN(nn.Module):
    def __init__(self, chans=(4, 8, 16), out=6):
        super().__init__()
        self.lateral = nn.ModuleList([nn.Conv2d(c, out, 1) for c in chans])
        self.smooth = nn.ModuleList([nn.Conv2d(out, out, 3, padding=1) for _ in chans])

    def forward(self, feats):
        last = self.lateral[-1](feats[-1])
        outs = [self.smooth[-1](last)]
        for i in range(len(feats) - 2, -1, -1):
            lat = self.lateral[i](feats[i])
            last = lat + F.interpolate(last, size=lat.shape[-2:], mode="nearest")
            outs.insert(0, self.smooth[i](last))
        return outs


fpn = det(FPN())
feats = [data(1, 4, 16, 16, seed=1), data(1, 8, 8, 8, seed=2), data(1, 16, 4, 4, seed=3)]
outs = fpn(feats)
sum(o.mean() for o in outs).backward()
report(shapes=[o.shape for o in outs], means=[o.mean().item() for o in outs], g=fpn.lateral[0].bias.grad)
