import torch
import torch.nn.functional as F

x = data(1, 2, 7, 5, seed=1)
report(avg=F.adaptive_avg_pool2d(x, (3, 2))[0, 0], mx=F.adaptive_max_pool2d(x, (2, 4))[0, 1],
       avg1=F.adaptive_avg_pool1d(x[0], 3)[1], idx=F.adaptive_max_pool2d(x, 2, return_indices=True)[1][0, 0],
       avg3=F.adaptive_avg_pool3d(x[None], (1, 2, 2)).flatten(), lp=F.lp_pool2d(x.abs(), 2, 2)[0, 0],
       gap=x.mean((-2, -1)), gmp=x.amax((-2, -1)))
