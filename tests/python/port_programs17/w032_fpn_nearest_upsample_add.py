import torch
import torch.nn as nn
import torch.nn.functional as F


class FPN(nn.Module):
    def __init__(self, chans, out=4):
        super().__init__()
        self.lat = nn.ModuleList(nn.Conv2d(c, out, 1) for c in chans)
        self.smooth = nn.ModuleList(nn.Conv2d(out, out, 3, padding=1) for _ in chans)

    def forward(self, feats):
        last = self.lat[-1](feats[-1])
        outs = [self.smooth[-1](last)]
        for i in range(len(feats) - 2, -1, -1):
            lat = self.lat[i](feats[i])
            last = lat + F.interpolate(last, size=lat.shape[-2:], mode="nearest")
            outs.insert(0, self.smooth[i](last))
        return outs


m = det(FPN([2, 3, 5]))
feats = [data(1, 2, 8, 8, seed=1), data(1, 3, 4, 4, seed=2), data(1, 5, 3, 3, seed=3)]
outs = m(feats)
sum(o.sum() for o in outs).backward()
report(o0=outs[0][0, 0, :3], o1=outs[1][0, 1], shapes=[list(o.shape) for o in outs], g=m.lat[2].weight.grad[:, :, 0, 0])
