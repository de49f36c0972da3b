import torch
import torch.nn as nn
import torch.nn.functional as F


class InvertedResidual(nn.Module):
    def __init__(self, inp, oup, stride, expand):
        super().__init__()
        hidden = inp * expand
        self.use_res = stride == 1 and inp == oup
        self.conv = nn.Sequential(
            nn.Conv2d(inp, hidden, 1, bias=False), nn.BatchNorm2d(hidden), nn.ReLU6(inplace=True),
            nn.Conv2d(hidden, hidden, 3, stride, 1, groups=hidden, bias=False), nn.BatchNorm2d(hidden),
            nn.ReLU6(inplace=True), nn.Conv2d(hidden, oup, 1, bias=False), nn.BatchNorm2d(oup))

    def forward(self, x):
        return x + self.conv(x) if self.use_res else self.conv(x)


class TinyMobileNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1, bias=False), nn.BatchNorm2d(8), nn.Hardswish())
        self.blocks = nn.Sequential(InvertedResidual(8, 8, 1, 2), InvertedResidual(8, 12, 2, 3),
                                    InvertedResidual(12, 12, 1, 2))
        self.head = nn.Linear(12, n_classes)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.head(x)


model = det(TinyMobileNet())
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=4e-5)
x = data(6, 3, 16, 16)
y = ints(4, 6)
losses = []
for step in range(4):
    opt.zero_grad(set_to_none=True)
    loss = F.cross_entropy(model(x), y, label_smoothing=0.1)
    loss.backward()
    opt.step()
    losses.append(loss.item())
model.eval()
with torch.inference_mode():
    out = model(x)
report(losses=losses, out=out, rm=model.stem[1].running_mean, nbt=model.stem[1].num_batches_tracked.item(),
       n=sum(p.numel() for p in model.parameters() if p.requires_grad))
