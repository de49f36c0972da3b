import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2)))
for p in m[0].parameters():
    p.requires_grad = False
m[1].eval()
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, m.parameters()), lr=0.1)
x = data(5, 3, seed=1)
before = m[0].weight.clone()
for _ in range(2):
    loss = m(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
m.requires_grad_(True)
trainable = sum(p.numel() for p in m.parameters() if p.requires_grad)
report(same=torch.equal(before, m[0].weight), g0=m[0].weight.grad is None, rm=m[1].running_mean, w=m[3].weight, tr=trainable,
       ng=len(opt.param_groups[0]["params"]), training=[mod.training for mod in m])
