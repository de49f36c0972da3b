import torch
import torch.nn as nn

net = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(4, 2, 1))
det(net)
net = net.to(memory_format=torch.channels_last)
x = data(2, 3, 6, 6, seed=3).to(memory_format=torch.channels_last)
y = net(x)
y.sum().backward()
report(y=y[1, 0], cl=x.is_contiguous(memory_format=torch.channels_last), c=x.is_contiguous(), xs=list(x.stride()),
       ws=list(net[0].weight.stride()), g=net[0].weight.grad[0, 0], ycl=y.is_contiguous(memory_format=torch.channels_last))
