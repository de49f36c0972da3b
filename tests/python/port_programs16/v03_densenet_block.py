import torch
import torch.nn as nn
import torch.nn.functional as F


class DenseLayer(nn.Module):
    def __init__(self, cin, growth):
        super().__init__()
        self.norm = nn.BatchNorm2d(cin)
        self.conv = nn.Conv2d(cin, growth, 3, padding=1, bias=False)

    def forward(self, feats):
        x = torch.cat(feats, 1) if isinstance(feats, list) else feats
        return self.conv(F.relu(self.norm(x)))


class DenseBlock(nn.ModuleDict):
    def __init__(self, n, cin, growth):
        super().__init__()
        for i in range(n):
            self.add_module("denselayer%d" % (i + 1), DenseLayer(cin + i * growth, growth))

    def forward(self, x):
        feats = [x]
        for name, layer in self.items():
            feats.append(layer(feats))
        return torch.cat(feats, 1)


block = det(DenseBlock(3, 4, 2))
trans = det(nn.Sequential(nn.BatchNorm2d(10), nn.ReLU(), nn.Conv2d(10, 5, 1), nn.AvgPool2d(2, 2)), seed=3)
x = data(2, 4, 6, 6)
opt = torch.optim.Adam(list(block.parameters()) + list(trans.parameters()), lr=0.01, betas=(0.8, 0.99))
for _ in range(3):
    y = trans(block(x))
    loss = y.abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
report(keys=list(block.keys()), shape=list(y.shape), loss=loss.item(), y=y[0, :, 0].detach(),
       nparams=sum(p.numel() for p in block.parameters()))
