import torch
import torch.nn as nn

torch.manual_seed(0)
model = det(nn.Sequential(nn.Linear(5, 8), nn.BatchNorm1d(8), nn.Dropout(0.5), nn.ReLU(), nn.Linear(8, 2)))
x = data(6, 5)
model.train()
t1 = model(x)
rm_after1 = model[1].running_mean.clone()
model.eval()
e1 = model(x)
e2 = model(x)
model.train(False)
flags = [m.training for m in model.modules()]
model[2].train()
mixed = [m.training for m in model]
model.eval()
with torch.no_grad():
    e3 = model(x[:1])
bn = nn.BatchNorm1d(3, momentum=None)
for k in range(3):
    bn(data(4, 3, seed=10 + k))
bn2 = nn.BatchNorm1d(3, track_running_stats=False).eval()
y2 = bn2(data(4, 3, seed=20))
report(same=torch.equal(e1, e2), e1=e1.detach(), e3=e3, rm=rm_after1, flags=flags, mixed=mixed, t1_shape=list(t1.shape),
       cum_mean=bn.running_mean, cum_var=bn.running_var, nbt=bn.num_batches_tracked, y2=y2.detach()[0])
