import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import weight_norm
from torch.nn.utils import parametrize

net = nn.Sequential(weight_norm(nn.Conv1d(2, 4, 3, padding=1)), nn.ReLU(), weight_norm(nn.Conv1d(4, 1, 3, padding=1)))
det(net, scale=0.3)
opt = torch.optim.Adam(net.parameters(), lr=0.01)
x = data(3, 2, 8)
y = data(3, 1, 8, seed=4)
ls = []
for _ in range(4):
    opt.zero_grad()
    l = nn.functional.mse_loss(net(x), y)
    l.backward()
    opt.step()
    ls.append(l.item())
names = [n for n, _ in net.named_parameters()]
g = net[0].parametrizations.weight.original0
parametrize.remove_parametrizations(net[0], "weight")
report(ls=ls, names=names, gshape=g.shape, after=[n for n, _ in net[0].named_parameters()], out=net(x).sum())
