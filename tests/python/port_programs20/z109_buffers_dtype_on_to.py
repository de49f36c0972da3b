import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.register_buffer("count", torch.zeros(1, dtype=torch.long))
        self.register_buffer("scale", torch.ones(2))
        self.register_buffer("flag", torch.tensor([True]))


m = M().double()
a = [m.lin.weight.dtype, m.count.dtype, m.scale.dtype, m.flag.dtype]
m.half()
b = [m.lin.weight.dtype, m.count.dtype, m.scale.dtype, m.flag.dtype]
m.to(torch.bfloat16)
c = [m.lin.weight.dtype, m.count.dtype, m.scale.dtype]
m.float()
bn = nn.BatchNorm1d(3).half()
report(a=a, b=b, c=c, bn=[bn.running_mean.dtype, bn.num_batches_tracked.dtype], train=m.train() is m, ev=m.eval().training)
