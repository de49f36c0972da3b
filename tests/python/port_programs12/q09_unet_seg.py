import torch
import torch.nn as nn
import torch.nn.functional as F
class DoubleConv(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.double_conv = nn.Sequential(nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True), nn.Conv2d(o, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))
    def forward(self, x):
        return self.double_conv(x)
class Up(nn.Module):
    def __init__(self, i, o, bilinear):
        super().__init__()
        if bilinear:
            self.up = nn.Upsample(scale_factor=2, mode='bilinear', align_corners=True); self.conv = DoubleConv(i, o)
        else:
            self.up = nn.ConvTranspose2d(i, i // 2, kernel_size=2, stride=2); self.conv = DoubleConv(i, o)
    def forward(self, x1, x2):
        x1 = self.up(x1)
        diffY = x2.size()[2] - x1.size()[2]; diffX = x2.size()[3] - x1.size()[3]
        x1 = F.pad(x1, [diffX // 2, diffX - diffX // 2, diffY // 2, diffY - diffY // 2])
        return self.conv(torch.cat([x2, x1], dim=1))
class UNet(nn.Module):
    def __init__(self, n_channels, n_classes, bilinear=False):
        super().__init__()
        self.inc = DoubleConv(n_channels, 4)
        self.down1 = nn.Sequential(nn.MaxPool2d(2), DoubleConv(4, 8))
        self.down2 = nn.Sequential(nn.MaxPool2d(2), DoubleConv(8, 16))
        self.up1 = Up(16 if not bilinear else 24, 8, bilinear); self.up2 = Up(8 if not bilinear else 12, 4, bilinear)
        self.outc = nn.Conv2d(4, n_classes, kernel_size=1)
    def forward(self, x):
        x1 = self.inc(x); x2 = self.down1(x1); x3 = self.down2(x2)
        x = self.up1(x3, x2); x = self.up2(x, x1)
        return self.outc(x)
def dice_loss(logits, target, n, eps=1e-6):
    probs = logits.softmax(1)
    oh = F.one_hot(target, n).permute(0, 3, 1, 2).float()
    inter = (probs * oh).sum(dim=(2, 3)); union = probs.sum(dim=(2, 3)) + oh.sum(dim=(2, 3))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()
res = {}
for bil in (False, True):
    net = det(UNet(2, 3, bilinear=bil), scale=0.3)
    x = data(2, 2, 10, 10)
    target = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long()
    target[0, :2, :2] = 255
    crit = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5]), ignore_index=255)
    opt = torch.optim.RMSprop(net.parameters(), lr=1e-3, weight_decay=1e-8, momentum=0.9)
    losses = []
    for _ in range(4):
        opt.zero_grad()
        out = net(x)
        loss = crit(out, target) + dice_loss(out, target.clamp(max=2), 3)
        loss.backward(); opt.step(); losses.append(loss.item())
    net.eval()
    with torch.no_grad():
        pred = net(x).argmax(dim=1)
    valid = target != 255
    ious = []
    for c in range(3):
        inter = ((pred == c) & (target == c) & valid).sum().item(); uni = (((pred == c) | (target == c)) & valid).sum().item()
        ious.append(inter / uni if uni else float('nan'))
    res[str(bil)] = dict(losses=losses, ious=ious, pix=(pred[valid] == target[valid]).float().mean(), unred=F.cross_entropy(out, target, ignore_index=255, reduction='none').shape)
report(**res)
