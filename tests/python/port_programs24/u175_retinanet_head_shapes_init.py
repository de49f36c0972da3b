import math
import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self, ch=8, anchors=3, classes=4, prior=0.01):
        super().__init__()
        self.cls = nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, anchors * classes, 3, padding=1))
        self.box = nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, anchors * 4, 3, padding=1))
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.normal_(m.weight, std=0.01)
                nn.init.constant_(m.bias, 0)
        nn.init.constant_(self.cls[-1].bias, -math.log((1 - prior) / prior))
        self.classes = classes

    def forward(self, feats):
        outs_c, outs_b = [], []
        for f in feats:
            n, _, h, w = f.shape
            c = self.cls(f).view(n, -1, self.classes, h, w).permute(0, 3, 4, 1, 2).reshape(n, -1, self.classes)
            b = self.box(f).view(n, -1, 4, h, w).permute(0, 3, 4, 1, 2).reshape(n, -1, 4)
            outs_c.append(c); outs_b.append(b)
        return torch.cat(outs_c, 1), torch.cat(outs_b, 1)


head = Head()
with torch.no_grad():
    for m in head.modules():
        if isinstance(m, nn.Conv2d):
            m.weight.copy_(data(*m.weight.shape, scale=0.01))
feats = [data(2, 8, 4, 4, seed=3), data(2, 8, 2, 2, seed=4)]
c, b = head(feats)
report(c_shape=c.shape, b_shape=b.shape, bias=head.cls[-1].bias[0].item(), mean_prob=c.sigmoid().mean().item(), b_abs=b.abs().mean().item())
