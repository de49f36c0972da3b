import torch

x = torch.arange(24.0).view(2, 3, 4)
p = x.permute(2, 0, 1)
p[0] += 100
s = x.select(2, 1)
s.mul_(-1)
m = x.movedim(0, -1)
m[..., 1] = 7
d = x[0].diagonal(offset=1)
d.zero_()
sq = x[:, :1].squeeze(1)
sq.add_(0.5)
un = x[1].unsqueeze(0)
un[0, 2, 3] = -9
c0, c1 = x.chunk(2, dim=2)
c1.fill_(3)
sp = x.split([1, 2], dim=1)[1]
sp[..., 0] = 42
ub = x.unbind(0)[0]
ub[2, 0] = 11
sw = x.swapaxes(0, 1)
sw[1, 0, 0] = 55
flat = x.view(-1)
flat[-1] = 1000
report(x=x, strides=[list(p.stride()), list(s.stride()), list(m.stride()), list(sw.stride())], contig=[p.is_contiguous(), m.is_contiguous()])
