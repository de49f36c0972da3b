import torch
import torch.nn as nn


class TabNet(nn.Module):
    def __init__(self, cards=(5, 7, 3), dims=(3, 4, 2), n_num=4):
        super().__init__()
        self.embs = nn.ModuleList([nn.Embedding(c, d) for c, d in zip(cards, dims)])
        self.bn = nn.BatchNorm1d(n_num)
        self.mlp = nn.Sequential(nn.Linear(sum(dims) + n_num, 12), nn.ELU(alpha=0.5), nn.Linear(12, 1))

    def forward(self, cat, num):
        e = [emb(cat[:, i]) for i, emb in enumerate(self.embs)]
        return self.mlp(torch.cat(e + [self.bn(num)], 1)).squeeze(1)


torch.manual_seed(0)
m = det(TabNet())
cat = torch.stack([ints(5, 10, seed=1), ints(7, 10, seed=2), ints(3, 10, seed=3)], 1)
num = data(10, 4)
target = data(10, seed=5)
opt = torch.optim.Adamax(m.parameters(), lr=0.02, betas=(0.85, 0.99), eps=1e-8, weight_decay=0.001)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
hist = []
for _ in range(4):
    opt.zero_grad()
    loss = nn.HuberLoss(delta=0.5)(m(cat, num), target)
    loss.backward()
    opt.step()
    sched.step()
    hist.append(loss.item())
report(hist=hist, lr=sched.get_last_lr(), catdt=cat.dtype, rm=m.bn.running_mean)
