import torch
import torch.nn as nn

net = det(nn.Sequential(nn.Conv2d(3, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU(inplace=True),
                        nn.Conv2d(4, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU(inplace=True),
                        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 3)), scale=0.3)
c = torch.compile(net)
x = data(2, 3, 6, 6)
c.train()
t1 = c(x)
c.eval()
with torch.no_grad():
    e1 = c(x)
c.train()
t2 = c(x)
c.eval()
with torch.inference_mode():
    e2 = c(x)
report(t1=t1, e1=e1, t2=t2, e2=e2, training=[c.training, net.training], nbt=net[1].num_batches_tracked)
