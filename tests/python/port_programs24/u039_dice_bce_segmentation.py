import torch
import torch.nn as nn
import torch.nn.functional as F


def dice_loss(logits, target, eps=1.0):
    probs = torch.sigmoid(logits)
    num = 2 * (probs * target).sum(dim=(2, 3)) + eps
    den = probs.sum(dim=(2, 3)) + target.sum(dim=(2, 3)) + eps
    return 1 - (num / den).mean()


class TinySeg(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.mid = nn.Sequential(nn.Conv2d(4, 4, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(4, 4, 2, stride=2)
        self.head = nn.Conv2d(5, 1, 1)

    def forward(self, x):
        y = self.up(self.mid(self.down(x)))
        return self.head(torch.cat([x, y], 1))


yy, xx = torch.meshgrid(torch.arange(8.), torch.arange(8.), indexing="ij")
mask = (((yy - 3.5) ** 2 + (xx - 3.5) ** 2) < 6).float().expand(2, 1, 8, 8)
img = mask + 0.3 * data(2, 1, 8, 8)
net = det(TinySeg())
opt = torch.optim.Adam(net.parameters(), lr=0.02)
hist = []
for _ in range(6):
    logits = net(img)
    loss = F.binary_cross_entropy_with_logits(logits, mask) + dice_loss(logits, mask)
    opt.zero_grad(); loss.backward(); opt.step(); hist.append(loss.item())
with torch.no_grad():
    pred = net(img) > 0
tp = (pred & mask.bool()).sum().item()
iou = tp / (pred | mask.bool()).sum().item()
report(hist=hist, iou=iou, tp=tp, fp=(pred & ~mask.bool()).sum().item(), mask_area=mask.sum((1, 2, 3)))
