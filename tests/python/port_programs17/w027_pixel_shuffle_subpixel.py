import torch
import torch.nn as nn


class SubPixel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4 * 2, 3, padding=1)
        self.ps = nn.PixelShuffle(2)
        self.pu = nn.PixelUnshuffle(2)

    def forward(self, x):
        return self.ps(self.conv(x))


m = det(SubPixel())
x = data(1, 1, 3, 4, seed=5)
y = m(x)
z = m.pu(y)
a = torch.arange(16.0).view(1, 4, 2, 2)
report(y=y[0, 1], shape=list(y.shape), z=list(z.shape), a=nn.functional.pixel_shuffle(a, 2), u=nn.functional.pixel_unshuffle(a.view(1, 1, 4, 4), 2)[0, :, 0])
