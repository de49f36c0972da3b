import torch
import torch.nn as nn

inorm = nn.InstanceNorm2d(3, affine=True)
inorm_stats = nn.InstanceNorm2d(3, track_running_stats=True, momentum=0.3)
ln = nn.LayerNorm([3, 4, 4], elementwise_affine=False)
det(inorm)
x = data(2, 3, 4, 4) * 3 + 1
a = inorm(x)
b = inorm_stats(x)
inorm_stats.eval()
c = inorm_stats(x)
d = ln(x)
ada = (x - x.mean((2, 3), keepdim=True)) / (x.var((2, 3), keepdim=True, unbiased=False) + 1e-5).sqrt()
report(a=a[0, :, 0, 0], b=b[1, 1, 1], c=c[0, 0, 0], d=d[0, 0, 0], rm=inorm_stats.running_mean,
       rv=inorm_stats.running_var, agree=torch.allclose(ada, nn.functional.instance_norm(x), atol=1e-5),
       rep=repr(inorm_stats))
