import torch
import torch.nn as nn

enc = det(nn.Sequential(nn.Conv1d(2, 4, 3, padding="same", dilation=2), nn.ReLU(), nn.MaxPool1d(2)))
dec = det(nn.Sequential(nn.Upsample(scale_factor=2, mode="linear", align_corners=False), nn.Conv1d(4, 2, 5, padding="same")), seed=1)
x = data(2, 2, 10)
h = enc(x)
y = dec(h)
y.sum().backward()
up = nn.Upsample(size=7, mode="nearest")(h)
report(h=h.shape, y=y, g=enc[0].weight.grad.sum(), up=up.sum(), ups=up.shape)
