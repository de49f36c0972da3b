import torch
import torch.nn as nn


class TDNN(nn.Module):
    def __init__(self, cin, cout, k, d):
        super().__init__()
        self.conv = nn.Conv1d(cin, cout, k, dilation=d)
        self.bn = nn.BatchNorm1d(cout)

    def forward(self, x):
        return self.bn(torch.relu(self.conv(x)))


class XVector(nn.Module):
    def __init__(self, feat=10, ch=12, emb=5, n_spk=3):
        super().__init__()
        self.frames = nn.Sequential(TDNN(feat, ch, 5, 1), TDNN(ch, ch, 3, 2), TDNN(ch, ch, 3, 3), TDNN(ch, ch, 1, 1))
        self.seg = nn.Linear(2 * ch, emb)
        self.cls = nn.Linear(emb, n_spk)

    def forward(self, x):
        h = self.frames(x)
        stats = torch.cat([h.mean(-1), h.std(-1)], dim=1)
        e = self.seg(stats)
        return e, self.cls(torch.relu(e))


net = det(XVector())
feats = data(6, 10, 30)
spk = torch.tensor([0, 1, 2, 0, 1, 2])
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.5, nesterov=True)
for _ in range(3):
    e, logits = net(feats)
    loss = nn.functional.cross_entropy(logits, spk)
    opt.zero_grad(); loss.backward(); opt.step()
net.eval()
with torch.no_grad():
    e, _ = net(feats)
    e = nn.functional.normalize(e, dim=1)
    sim = e @ e.t()
report(loss=loss.item(), sim=sim, frames_out=net.frames(feats).shape)
