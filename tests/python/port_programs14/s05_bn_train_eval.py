import torch
import torch.nn as nn

bn = nn.BatchNorm2d(3, momentum=0.2, eps=1e-3)
bn1 = nn.BatchNorm1d(4, affine=False, track_running_stats=True, momentum=None)
x = data(5, 3, 4, 4)
z = data(6, 4, seed=3)
for i in range(3):
    y = bn(x * (i + 1))
    w = bn1(z + i)
bn.eval()
e = bn(x)
bn1.eval()
e1 = bn1(z)
bn2 = nn.BatchNorm2d(3, track_running_stats=False)
bn2.eval()
e2 = bn2(x)
report(rm=bn.running_mean, rv=bn.running_var, nb=bn.num_batches_tracked, e=e[0, :, 0, 0], rm1=bn1.running_mean,
       rv1=bn1.running_var, nb1=bn1.num_batches_tracked, e1=e1[0], e2=e2[1, :, 1, 1], keys=list(bn.state_dict().keys()),
       keys2=list(bn2.state_dict().keys()), y=y.mean().item(), w=w.std().item())
