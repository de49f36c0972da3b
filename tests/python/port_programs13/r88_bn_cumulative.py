import torch
import torch.nn as nn
bn = nn.BatchNorm1d(3, momentum=None)
bn2 = nn.BatchNorm1d(3, momentum=0.3, affine=False)
bn3 = nn.BatchNorm1d(3, track_running_stats=False)
for i in range(4):
    x = data(8, 3, seed=i) * (i + 1) + i
    bn(x); bn2(x); bn3(x)
bn.eval(); bn2.eval(); bn3.eval()
x = data(2, 3, seed=9)
ln = nn.LayerNorm([3], elementwise_affine=False)
gn = nn.GroupNorm(1, 3)
inn = nn.InstanceNorm1d(3, track_running_stats=True)
inn(data(2, 3, 5)); inn.eval()
rms = nn.RMSNorm(3) if hasattr(nn, "RMSNorm") else None
lrn = nn.LocalResponseNorm(2)(data(1, 4, 3, 3))
report(rm=bn.running_mean, rv=bn.running_var, n=bn.num_batches_tracked, rm2=bn2.running_mean, has3=bn3.running_mean is None, e1=bn(x), e3=bn3(x), ln=ln(x),
       gn=gn(data(2, 3, 4))[0, 0], inn=inn.running_mean, rms=rms(x), lrn=lrn[0, :, 0, 0], bn_repr=repr(bn), affine=bn2.weight is None)
