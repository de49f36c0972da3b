import torch
import torch.nn as nn
import torch.nn.functional as F

class DoubleConv(nn.Module):
    def __init__(self, in_channels, out_channels, mid_channels=None):
        super().__init__()
        if not mid_channels:
            mid_channels = out_channels
        self.double_conv = nn.Sequential(
            nn.Conv2d(in_channels, mid_channels, kernel_size=3, padding=1, bias=False),
            nn.BatchNorm2d(mid_channels), nn.ReLU(inplace=True),
            nn.Conv2d(mid_channels, out_channels, kernel_size=3, padding=1, bias=False),
            nn.BatchNorm2d(out_channels), nn.ReLU(inplace=True))
    def forward(self, x):
        return self.double_conv(x)

class Down(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.maxpool_conv = nn.Sequential(nn.MaxPool2d(2), DoubleConv(in_channels, out_channels))
    def forward(self, x):
        return self.maxpool_conv(x)

class Up(nn.Module):
    def __init__(self, in_channels, out_channels, bilinear=True):
        super().__init__()
        if bilinear:
            self.up = nn.Upsample(scale_factor=2, mode='bilinear', align_corners=True)
            self.conv = DoubleConv(in_channels, out_channels, in_channels // 2)
        else:
            self.up = nn.ConvTranspose2d(in_channels, in_channels // 2, kernel_size=2, stride=2)
            self.conv = DoubleConv(in_channels, out_channels)
    def forward(self, x1, x2):
        x1 = self.up(x1)
        diffY = x2.size()[2] - x1.size()[2]
        diffX = x2.size()[3] - x1.size()[3]
        x1 = F.pad(x1, [diffX // 2, diffX - diffX // 2, diffY // 2, diffY - diffY // 2])
        x = torch.cat([x2, x1], dim=1)
        return self.conv(x)

class UNet(nn.Module):
    def __init__(self, n_channels, n_classes, bilinear=False):
        super().__init__()
        self.inc = DoubleConv(n_channels, 8)
        self.down1 = Down(8, 16)
        factor = 2 if bilinear else 1
        self.down2 = Down(16, 32 // factor)
        self.up1 = Up(32, 16 // factor, bilinear)
        self.up2 = Up(16, 8, bilinear)
        self.outc = nn.Conv2d(8, n_classes, kernel_size=1)
    def forward(self, x):
        x1 = self.inc(x); x2 = self.down1(x1); x3 = self.down2(x2)
        x = self.up1(x3, x2); x = self.up2(x, x1)
        return self.outc(x)

res = {}
for bilinear in (False, True):
    model = det(UNet(2, 1, bilinear=bilinear))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = data(2, 2, 11, 13)
    mask = (data(2, 1, 11, 13, seed=5) > 0).float()
    losses = []
    for _ in range(3):
        opt.zero_grad()
        pred = model(x)
        loss = F.binary_cross_entropy_with_logits(pred, mask)
        loss.backward(); opt.step(); losses.append(loss.item())
    with torch.no_grad():
        dice = (2 * (torch.sigmoid(pred) > 0.5).float().mul(mask).sum() + 1) / ((torch.sigmoid(pred) > 0.5).sum() + mask.sum() + 1)
    res[str(bilinear)] = dict(losses=losses, dice=dice.item(), shape=list(pred.shape))
report(**res)
