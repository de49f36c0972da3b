import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 2)))
x = data(6, 4)
model.eval()
a = model(x)
model.train()
for m in model.modules():
    if isinstance(m, nn.Dropout):
        m.eval()
b = model(x)
bn = model[1]
modes = [m.training for m in model.modules()]
model.eval()
c = model(x)
report(a=a[0], b=b[0], c=c[0], modes=modes, rm=bn.running_mean[:3], nbt=bn.num_batches_tracked.item())
