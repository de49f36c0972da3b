import torch

buf = torch.zeros(4, 6)
buf.narrow(1, 2, 3).fill_(1.0)
buf.select(0, 3).add_(2.0)
buf[1].copy_(torch.arange(6.0))
col = buf[:, 0]
col += 5
d = buf.diagonal()
d.mul_(-1)
t = buf.t()
t[0, 1] = 42
u = buf.unfold(1, 2, 2)
u[..., 0] = 7
report(buf=buf, col=col, d=d, is_view=[col._base is buf, d._base is buf, t._base is buf])
