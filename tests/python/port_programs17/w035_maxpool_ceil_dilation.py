import torch
import torch.nn.functional as F

x = data(1, 2, 7, 9, seed=2)
a, ia = F.max_pool2d(x, 3, stride=2, ceil_mode=True, return_indices=True)
b = F.max_pool2d(x, (2, 3), stride=(2, 2), padding=(1, 1), dilation=(1, 2))
c = F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
d = F.avg_pool2d(x, 2, divisor_override=3)
e = F.lp_pool2d(x.abs(), 2, 3, stride=2)
un = F.max_unpool2d(a, ia, 3, stride=2, output_size=x.shape[-2:])
report(a=a[0, 0], ia=ia[0, 1], b=b[0, 0], c=c[0, 1], d=d[0, 0], e=e[0, 1], un=un[0, 0, :2], shapes=[list(t.shape) for t in (a, b, c, d, e)])
