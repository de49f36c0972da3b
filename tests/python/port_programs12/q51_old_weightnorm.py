import torch
import torch.nn as nn
from torch.nn.utils import weight_norm, remove_weight_norm, spectral_norm, remove_spectral_norm
lin = det(nn.Linear(4, 3))
lin = weight_norm(lin, name="weight", dim=0)
names = sorted(n for n, _ in lin.named_parameters())
x = data(2, 4)
out = lin(x); out.sum().backward()
gg = lin.weight_g.grad.clone(); gv = lin.weight_v.grad.clone()
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
opt.step()
out2 = lin(x)
remove_weight_norm(lin)
names2 = sorted(n for n, _ in lin.named_parameters())
out3 = lin(x)
conv = weight_norm(det(nn.Conv1d(2, 3, 3), seed=2), dim=None)
c = conv(data(1, 2, 5, seed=3))
sn = spectral_norm(det(nn.Linear(5, 4), seed=4), n_power_iterations=3)
for _ in range(10): sn(data(2, 5))
keys = sorted(sn.state_dict().keys())
sv = torch.linalg.svdvals(sn.weight.detach())[0]
remove_spectral_norm(sn)
report(names=names, out=out, gg=gg, gv=gv, out2=out2, names2=names2, out3=out3, c=c, gshape=conv.weight_g.shape, keys=keys, sv=sv)
