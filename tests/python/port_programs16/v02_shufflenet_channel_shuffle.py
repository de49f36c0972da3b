import torch
import torch.nn as nn


def channel_shuffle(x, groups):
    b, c, h, w = x.size()
    x = x.view(b, groups, c // groups, h, w)
    x = torch.transpose(x, 1, 2).contiguous()
    return x.view(b, -1, h, w)


class ShuffleUnit(nn.Module):
    def __init__(self, c):
        super().__init__()
        half = c // 2
        self.branch = nn.Sequential(nn.Conv2d(half, half, 1, bias=False), nn.BatchNorm2d(half), nn.ReLU(),
                                    nn.Conv2d(half, half, 3, 1, 1, groups=half, bias=False), nn.BatchNorm2d(half),
                                    nn.Conv2d(half, half, 1, bias=False), nn.BatchNorm2d(half), nn.ReLU())

    def forward(self, x):
        a, b = x.chunk(2, dim=1)
        return channel_shuffle(torch.cat((a, self.branch(b)), 1), 2)


x = torch.arange(2 * 8 * 2 * 2, dtype=torch.float32).view(2, 8, 2, 2)
shuffled = channel_shuffle(x, 4)
net = det(nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), ShuffleUnit(8), ShuffleUnit(8), nn.AdaptiveAvgPool2d((1, 1))))
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, nesterov=True)
inp = data(4, 3, 8, 8)
for _ in range(3):
    out = net(inp).flatten(1)
    loss = (out ** 2).mean()
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
report(order=shuffled[0, :, 0, 0], loss=loss.item(), out=out.detach(), strides=list(shuffled.stride()))
