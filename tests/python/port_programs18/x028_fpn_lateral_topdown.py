import torch
import torch.nn as nn
import torch.nn.functional as F


class FPN(nn.Module):
    def __init__(self, chans=(4, 8, 16), out=6):
        super().__init__()
        self.lat = nn.ModuleList([nn.Conv2d(c, out, 1) for c in chans])
        self.smooth = nn.ModuleList([nn.Conv2d(out, out, 3, padding=1) for _ in chans])

    def forward(self, feats):
        lat = [l(f) for l, f in zip(self.lat, feats)]
        outs = [lat[-1]]
        for f in lat[-2::-1]:
            up = F.interpolate(outs[0], size=f.shape[-2:], mode="nearest")
            outs.insert(0, f + up)
        return [s(o) for s, o in zip(self.smooth, outs)]


m = det(FPN(), scale=0.3)
feats = [data(1, 4, 8, 8, seed=1), data(1, 8, 4, 4, seed=2), data(1, 16, 2, 2, seed=3)]
outs = m(feats)
report(shapes=[list(o.shape) for o in outs], p2=outs[0][0, 0, :2], p4=outs[2][0, :, 0, 0])
