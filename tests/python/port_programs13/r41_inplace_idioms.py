import torch
x = torch.arange(12, dtype=torch.float32).view(3, 4)
x[:, 1] += 10
x[x > 15] = -1
x[0].mul_(2)
x.masked_fill_(x == 0, 99)
x.index_fill_(1, torch.tensor([3]), 0.5)
y = x.clone()
y[[0, 2], [1, 3]] = torch.tensor([7.0, 8.0])
y[1, :] = torch.tensor([1.0, 2.0, 3.0, 4.0])
y.t_()
z = torch.zeros(5)
z[torch.tensor([0, 0, 3])] += 1
z.index_add_(0, torch.tensor([1, 1, 4]), torch.tensor([1.0, 2.0, 3.0]))
w = torch.ones(2, 3)
w.add_(torch.arange(3.0)).div_(2).sub_(0.25).pow_(2).sqrt_().neg_().abs_()
w.clamp_(max=1.0).exp_().log_()
v = torch.arange(6.0)
v[::2] = 0
v[1::2] *= -1
u = torch.zeros(3, 3)
u.diagonal().fill_(4)
u.fill_diagonal_(2, wrap=False)
u[:, 0].copy_(torch.tensor([9.0, 8.0, 7.0]))
a = torch.arange(4.0); b = a; b += 1
c = torch.tensor([1, 2, 3]); c *= 2; c //= 3
t = torch.zeros(2, 2); t.copy_(torch.tensor([[1, 2], [3, 4]]))
s = torch.arange(6).view(2, 3); s.swapaxes_(0, 1) if hasattr(s, "swapaxes_") else None
report(x=x, y=y, z=z, w=w, v=v, u=u, a=a, c=c, t=t, dt=t.dtype, s=s)
