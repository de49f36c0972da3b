import torch
import torch.nn as nn
# TOL 1e-2

net = det(nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2)))
net.eval()
x = data(2, 3, 6, 6)
ref = net(x)
bnet = net.to(dtype=torch.bfloat16)
with torch.no_grad():
    ob = bnet(x.bfloat16())
report(ref=ref, ob=ob, dt=ob.dtype, rm=bnet[1].running_mean.dtype, err=(ob.float() - ref).abs().max().item() < 0.05)
