import torch
import torch.nn as nn
class RunningNorm(nn.Module):
    def __init__(self, d, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("mean", torch.zeros(d))
        self.register_buffer("var", torch.ones(d))
        self.register_buffer("count", torch.tensor(0, dtype=torch.long))
        self.register_buffer("scratch", torch.zeros(d), persistent=False)
        self.register_buffer("maybe", None)
    def forward(self, x):
        if self.training:
            m, v = x.mean(0), x.var(0, unbiased=False)
            with torch.no_grad():
                self.mean.mul_(1 - self.momentum).add_(m, alpha=self.momentum)
                self.var.lerp_(v, self.momentum)
                self.count += 1
                self.scratch.copy_(m)
        return (x - self.mean) / torch.sqrt(self.var + 1e-5)
n = RunningNorm(3)
for i in range(4):
    out = n(data(8, 3, seed=i) * 2 + 1)
sd = n.state_dict()
n2 = RunningNorm(3)
n2.load_state_dict(sd)
n2.eval()
e = n2(data(2, 3))
bufs = dict(n.named_buffers())
n.double()
report(keys=list(sd), bufs=sorted(bufs), mean=n2.mean, var=n2.var, count=n2.count, e=e, scratch2=n2.scratch, dt=[str(n.mean.dtype), str(n.count.dtype)],
       nparams=len(list(n.parameters())), maybe=n.maybe is None)
