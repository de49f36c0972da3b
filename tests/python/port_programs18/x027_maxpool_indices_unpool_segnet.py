import torch
import torch.nn as nn

pool = nn.MaxPool2d(2, stride=2, return_indices=True)
unpool = nn.MaxUnpool2d(2, stride=2)
x = data(1, 2, 4, 6, seed=7)
y, idx = pool(x)
z = unpool(y, idx, output_size=x.size())
x2 = data(1, 1, 5, 5, seed=8)
y2, i2 = nn.MaxPool2d(3, 2, padding=1, return_indices=True)(x2)
z2 = nn.MaxUnpool2d(3, 2, padding=1)(y2, i2, output_size=(5, 5))
report(y=y, idx=idx, z=z[0, 0], i2=i2, z2nz=(z2 != 0).sum().item())
