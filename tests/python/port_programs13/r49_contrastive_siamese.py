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
        self.cnn = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.MaxPool2d(2, 2), nn.Flatten(), nn.Linear(4 * 3 * 3, 5))
    def forward_once(self, x):
        return self.cnn(x)
    def forward(self, a, b):
        return self.forward_once(a), self.forward_once(b)
net = det(Siamese())
a, b = data(6, 1, 8, 8), data(6, 1, 8, 8, seed=3)
label = torch.tensor([[0.0], [1.0], [0.0], [1.0], [1.0], [0.0]])
crit = ContrastiveLoss()
opt = torch.optim.Adam(net.parameters(), lr=5e-4)
L = []
for _ in range(3):
    o1, o2 = net(a, b)
    loss = crit(o1, o2, label)
    opt.zero_grad(); loss.backward(); opt.step(); L.append(loss.item())
cs = nn.CosineSimilarity(dim=1, eps=1e-6)(o1, o2)
pd = nn.PairwiseDistance(p=1.0)(o1, o2)
report(L=L, cs=cs, pd=pd, d=F.pairwise_distance(o1, o2, p=float("inf")))
