import torch
import torch.nn as nn
import torch.nn.functional as F


class ContrastiveLoss(nn.Module):
    def __init__(self, margin=2.0):
        super().__init__()
        self.margin = margin

    def forward(self, o1, o2, label):
        d = F.pairwise_distance(o1, o2, keepdim=True)
        return torch.mean((1 - label) * torch.pow(d, 2) + label * torch.pow(torch.clamp(self.margin - d, min=0.0), 2))


class Siamese(nn.Module):
    def __init__(self):
        super().__init__()
        self.cnn = nn.Sequential(nn.ReflectionPad2d(1), nn.Conv2d(1, 4, 3), nn.ReLU(inplace=True), nn.BatchNorm2d(4),
                                 nn.ReflectionPad2d(1), nn.Conv2d(4, 4, 3), nn.ReLU(inplace=True), nn.BatchNorm2d(4))
        self.fc = nn.Sequential(nn.Linear(4 * 6 * 6, 16), nn.ReLU(inplace=True), nn.Linear(16, 5))

    def forward_once(self, x):
        return self.fc(self.cnn(x).view(x.size()[0], -1))

    def forward(self, a, b):
        return self.forward_once(a), self.forward_once(b)


net = det(Siamese(), scale=0.2)
crit = ContrastiveLoss()
opt = torch.optim.Adam(net.parameters(), lr=5e-4)
a, b = data(4, 1, 6, 6), data(4, 1, 6, 6, seed=8)
lab = torch.tensor([[0.0], [1.0], [0.0], [1.0]])
hist = []
for _ in range(3):
    o1, o2 = net(a, b)
    loss = crit(o1, o2, lab)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
net.eval()
with torch.no_grad():
    e1, e2 = net(a, b)
    dist = F.pairwise_distance(e1, e2)
report(hist=hist, dist=dist, sim=F.cosine_similarity(e1[:, None], e2[None], dim=-1)[0])
