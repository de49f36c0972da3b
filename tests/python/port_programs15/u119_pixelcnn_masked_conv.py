import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedConv2d(nn.Conv2d):
    def __init__(self, mask_type, *args, **kwargs):
        super().__init__(*args, **kwargs)
        assert mask_type in ("A", "B")
        self.register_buffer("mask", self.weight.data.clone())
        _, _, kH, kW = self.weight.size()
        self.mask.fill_(1)
        self.mask[:, :, kH // 2, kW // 2 + (mask_type == "B"):] = 0
        self.mask[:, :, kH // 2 + 1:] = 0

    def forward(self, x):
        self.weight.data *= self.mask
        return super().forward(x)


net = nn.Sequential(MaskedConv2d("A", 1, 8, 5, 1, 2, bias=False), nn.BatchNorm2d(8), nn.ReLU(True),
                    MaskedConv2d("B", 8, 8, 3, 1, 1, bias=False), nn.BatchNorm2d(8), nn.ReLU(True), nn.Conv2d(8, 4, 1))
det(net, scale=0.3)
img = (data(2, 1, 6, 6) > 0).float()
target = img.squeeze(1).long()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
hist = []
for _ in range(3):
    out = net(img)
    loss = F.cross_entropy(out, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
net.eval()
probe = torch.zeros(1, 1, 6, 6, requires_grad=True)
net(probe)[0, :, 3, 3].sum().backward()
dep = (probe.grad[0, 0] != 0).int()
report(hist=hist, mask=net[0].mask[0, 0], dep=dep, zero_w=(net[0].weight * (1 - net[0].mask)).abs().sum())
