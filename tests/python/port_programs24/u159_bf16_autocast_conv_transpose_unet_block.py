import torch
import torch.nn as nn


class Up(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(4, 2, 2, stride=2)
        self.conv = nn.Conv2d(4, 2, 3, padding=1)

    def forward(self, x, skip):
        return torch.relu(self.conv(torch.cat([self.up(x), skip], 1)))


m = det(Up())
x = data(1, 4, 3, 3)
skip = data(1, 2, 6, 6, seed=3)
with torch.autocast("cpu", dtype=torch.bfloat16):
    y = m(x, skip)
ref = m(x, skip)
report(dtype=y.dtype, y=y.float()[0, 0, 0], close=torch.allclose(y.float(), ref, atol=0.05), up_dtype=m.up(x).dtype)
