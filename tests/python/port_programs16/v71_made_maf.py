import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedLinear(nn.Linear):
    def __init__(self, din, dout):
        super().__init__(din, dout)
        self.register_buffer("mask", torch.ones(dout, din))

    def set_mask(self, mask):
        self.mask.data.copy_(mask.T)

    def forward(self, x):
        return F.linear(x, self.mask * self.weight, self.bias)


D, Hd = 4, 8
m_in = torch.arange(1, D + 1)
m_h = (torch.arange(Hd) % (D - 1)) + 1
l1, l2 = MaskedLinear(D, Hd), MaskedLinear(Hd, 2 * D)
l1.set_mask((m_in[:, None] <= m_h[None, :]).float())
l2.set_mask((m_h[:, None] < torch.cat([m_in, m_in])[None, :]).float())
made = det(nn.Sequential(l1, nn.ReLU(), l2))
x = data(5, D)
opt = torch.optim.Adam(made.parameters(), lr=1e-2)
for _ in range(4):
    mu, log_s = made(x).chunk(2, dim=1)
    u = (x - mu) * torch.exp(-log_s)
    log_det = -log_s.sum(1)
    nll = (0.5 * u.pow(2) + 0.5 * torch.log(torch.tensor(2 * torch.pi))).sum(1) - log_det
    loss = nll.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
J = torch.autograd.functional.jacobian(lambda v: made(v)[:D], x[0])
report(loss=loss.item(), triu=bool((J.triu() == 0).all()), mask_sum=l1.mask.sum().item(), bufs=[n for n, _ in made.named_buffers()])
