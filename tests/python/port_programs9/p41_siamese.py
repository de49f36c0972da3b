import torch
import torch.nn as nn
import torch.nn.functional as F
class ContrastiveLoss(nn.Module):
    def __init__(self, margin=2.0):
        super(ContrastiveLoss, self).__init__()
        self.margin = margin
    def forward(self, output1, output2, label):
        euclidean_distance = F.pairwise_distance(output1, output2, keepdim=True)
        return torch.mean((1 - label) * torch.pow(euclidean_distance, 2) + label * torch.pow(torch.clamp(self.margin - euclidean_distance, min=0.0), 2))
net = det(nn.Sequential(nn.Linear(6, 8), nn.ReLU(inplace=True), nn.Linear(8, 3)), 0, 0.5)
crit = ContrastiveLoss(); tri = nn.TripletMarginLoss(margin=1.0, p=2)
opt = torch.optim.SGD(net.parameters(), lr=5e-2)
a = data(6, 6); b = data(6, 6, seed=3); n = data(6, 6, seed=4)
label = torch.tensor([[0.], [1.], [0.], [1.], [1.], [0.]])
hist = []
for _ in range(3):
    opt.zero_grad()
    o1, o2, o3 = net(a), net(b), net(n)
    loss = crit(o1, o2, label) + tri(o1, o2, o3)
    loss.backward(); opt.step(); hist.append(loss.item())
with torch.no_grad():
    emb = F.normalize(net(a), dim=1)
    sim = emb @ emb.T
    cos_loss = nn.CosineEmbeddingLoss(margin=0.1)(net(a), net(b), torch.tensor([1, -1, 1, -1, 1, -1]))
report(hist=hist, sim=sim, cos=cos_loss, mr=nn.MarginRankingLoss(0.5)(a[:, 0], b[:, 0], torch.ones(6)))
