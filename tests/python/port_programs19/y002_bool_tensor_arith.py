import torch
b = torch.tensor([True, False, True])
report(plus1=b + 1, plusb=(b + b), mulf=b * 2.5, dt=[(b + 1).dtype, (b + b).dtype, (b * 2.5).dtype, (b & b).dtype],
       summ=b.sum(), sumdt=b.sum().dtype, anyb=b.any(), mean_f=b.float().mean(), cum=b.cumsum(0))
