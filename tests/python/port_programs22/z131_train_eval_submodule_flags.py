import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))
        self.bn = nn.BatchNorm1d(4)
        self.head = nn.Linear(4, 2)

    def forward(self, x):
        h = self.bn(self.body(x))
        if self.training:
            h = h * 2
        return self.head(h)

net = det(Net(), seed=196)
net.eval()
x = data(3, 4, seed=197)
e = net(x)
net.train()
for m in net.modules():
    if isinstance(m, (nn.Dropout, nn.BatchNorm1d)):
        m.eval()
t = net(x)
flags = {n: m.training for n, m in net.named_modules()}
net.train(False)
report(e=e, t=t, flags=flags, all_eval=not any(m.training for m in net.modules()), ret=net.train() is net)
