import torch
import torch.nn as nn
import torch.nn.functional as F


class TextCNN(nn.Module):
    def __init__(self, v=30, d=6, n=4, ks=(2, 3), c=2):
        super().__init__()
        self.emb = nn.Embedding(v, d)
        self.convs = nn.ModuleList([nn.Conv1d(d, n, k) for k in ks])
        self.fc = nn.Linear(n * len(ks), c)

    def forward(self, x):
        e = self.emb(x).permute(0, 2, 1)
        pooled = [F.max_pool1d(F.relu(conv(e)), conv(e).shape[2]).squeeze(2) for conv in self.convs]
        return self.fc(torch.cat(pooled, 1))


m = det(TextCNN(), scale=0.3)
x, y = ints(30, 4, 7), ints(2, 4, seed=5)
opt = torch.optim.Adadelta(m.parameters())
ls = []
for _ in range(3):
    opt.zero_grad()
    l = F.cross_entropy(m(x), y)
    l.backward()
    opt.step()
    ls.append(l.item())
report(ls=ls, out=m(x))
