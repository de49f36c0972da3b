import torch
import torch.nn as nn

net = det(nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 3)))
net.eval()
x = data(2, 3, 6, 6, seed=1)
ref = net(x)
netb = net.to(torch.bfloat16)
y = netb(x.bfloat16())
probs = y.float().softmax(-1)
netf = netb.float()
report(ref=ref, y=y, ydt=y.dtype, probs=probs, back=netf(x), bn=netb[1].running_mean.dtype, pred=probs.argmax(1))
# TOL 3e-2
