import torch
import torch.nn as nn
# TOL 1e-2

net = det(nn.Sequential(nn.Conv2d(3, 6, 3, padding=1), nn.BatchNorm2d(6), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 4, 1),
                        nn.AdaptiveAvgPool2d(1), nn.Flatten()), scale=0.3).eval()
x = data(2, 3, 8, 8)
ref = net(x)
net = net.to(memory_format=torch.channels_last).half()
with torch.no_grad():
    out = net(x.half().to(memory_format=torch.channels_last))
report(out=out, dt=out.dtype, err=(out.float() - ref).abs().max().item() < 0.05, w_cl=net[0].weight.is_contiguous(memory_format=torch.channels_last))
