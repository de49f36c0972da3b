import torch
import torch.nn as nn

net = det(nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(16, 2)))
net.eval()
cnet = torch.compile(net)
outs = []
with torch.no_grad():
    for bs in (1, 3, 2):
        outs.append(cnet(data(bs, 1, 4, 4, seed=bs)))
eager = net(data(3, 1, 4, 4, seed=3))
net2 = det(nn.Linear(2, 2))
net2.compile()
y = net2(data(1, 2))
report(outs=outs, same=torch.allclose(outs[1], eager, atol=1e-6), y=y, cls=type(net2).__name__)
