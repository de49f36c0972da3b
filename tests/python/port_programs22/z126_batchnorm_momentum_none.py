import torch
import torch.nn as nn

bn = nn.BatchNorm1d(3, momentum=None)
for i in range(4):
    bn(data(5, 3, seed=187 + i) * (i + 1))
bn2 = nn.BatchNorm2d(2, momentum=0.3, affine=False)
y = bn2(data(2, 2, 3, 3, seed=191))
bn2.eval()
ye = bn2(data(1, 2, 3, 3, seed=192))
bn3 = nn.BatchNorm1d(3)
bn3.reset_running_stats()
bn3.running_mean.fill_(1.0)
bn3.reset_running_stats()
inst = nn.InstanceNorm1d(3, affine=True, track_running_stats=True)
o = inst(data(2, 3, 5, seed=193))
report(rm=bn.running_mean, rv=bn.running_var, nbt=bn.num_batches_tracked, y=y[1, 0], ye=ye[0, 1], rm2=bn2.running_mean,
       bn3=bn3.running_mean, inst_rm=inst.running_mean, o=o[0, 1], affine=bn2.weight is None)
