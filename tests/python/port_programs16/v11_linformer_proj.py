import torch
import torch.nn as nn


class LinformerAttention(nn.Module):
    def __init__(self, dim, seq_len, k=3, heads=2):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * 3, bias=False)
        self.E = nn.Parameter(torch.zeros(seq_len, k))
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        k = torch.einsum("bnd,nk->bkd", k, self.E)
        v = torch.einsum("bnd,nk->bkd", v, self.E)
        q, k, v = (t.reshape(b, -1, self.heads, d // self.heads).transpose(1, 2) for t in (q, k, v))
        attn = (q @ k.transpose(-2, -1)) * (d // self.heads) ** -0.5
        out = attn.softmax(dim=-1) @ v
        return self.out(out.transpose(1, 2).reshape(b, n, d))


m = det(LinformerAttention(8, 5))
x = data(2, 5, 8)
opt = torch.optim.Adam(m.parameters(), lr=1e-2)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 3))
lrs = []
for _ in range(4):
    loss = (m(x) - x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    lrs.append(sched.get_last_lr()[0])
report(loss=loss.item(), lrs=lrs, E=m.E.detach()[0])
