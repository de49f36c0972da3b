import torch
import torch.nn as nn

net = nn.Sequential(
    nn.Conv2d(4, 4, 3, padding=2, dilation=2, groups=4, padding_mode="reflect"),
    nn.Conv2d(4, 8, 1),
    nn.BatchNorm2d(8),
    nn.ReLU6(inplace=True),
    nn.Conv2d(8, 8, (3, 1), stride=(2, 1), padding=(1, 0), padding_mode="replicate"),
    nn.Hardswish(),
    nn.Conv2d(8, 6, 3, padding="same", padding_mode="circular"),
)
det(net)
x = data(2, 4, 10, 10)
y = net(x)
y.sum().backward()
report(y=y[0, :, 0, 0], shape=y.shape, g=net[0].weight.grad.flatten()[:6], gb=net[6].bias.grad)
