import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.5), nn.BatchNorm1d(8), nn.Linear(8, 2)))
x = data(6, 4)
m.eval()
a = m(x)
b = m(x)
m.train()
out = m(x)
flags = [mod.training for mod in m]
m.train(False)
flags2 = [mod.training for mod in m]
m.requires_grad_(False)
rg = [p.requires_grad for p in m.parameters()]
m[3].requires_grad_(True)
rg2 = [p.requires_grad for p in m.parameters()]
report(same=torch.equal(a, b), a=a, out_shape=out.shape, flags=flags, flags2=flags2, rg=rg, rg2=rg2,
       nbt=m[2].num_batches_tracked)
