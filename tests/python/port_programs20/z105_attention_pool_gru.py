import torch
import torch.nn as nn


class AttnPool(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.w = nn.Linear(h, 1, bias=False)

    def forward(self, H, mask):
        s = self.w(H).squeeze(-1).masked_fill(~mask, float("-inf"))
        a = torch.softmax(s, dim=1)
        return torch.bmm(a.unsqueeze(1), H).squeeze(1), a


gru = det(nn.GRU(3, 4, batch_first=True, bidirectional=True))
pool = det(AttnPool(8), seed=3)
x = data(2, 5, 3)
mask = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], dtype=torch.bool)
H, h = gru(x)
ctx, a = pool(H, mask)
ctx.sum().backward()
report(ctx=ctx, a=a, g=pool.w.weight.grad, hn=h)
