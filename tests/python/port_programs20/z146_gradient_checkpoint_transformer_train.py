import torch
import torch.nn as nn
import torch.utils.checkpoint


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, 2, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x):
        h = self.ln(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(x)


class Model(nn.Module):
    def __init__(self, gc):
        super().__init__()
        self.blocks = nn.ModuleList([Block(8) for _ in range(2)])
        self.gradient_checkpointing = gc

    def forward(self, x):
        for b in self.blocks:
            if self.gradient_checkpointing and self.training:
                x = torch.utils.checkpoint.checkpoint(b, x, use_reentrant=True)
            else:
                x = b(x)
        return x


x = data(2, 3, 8).requires_grad_(True)
res = []
for gc in (True, False):
    m = det(Model(gc), scale=0.3)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    out = m(x)
    out.pow(2).mean().backward()
    opt.step()
    res.append([out.sum().item(), m.blocks[0].attn.in_proj_weight.sum().item()])
report(res=res, xg=x.grad.shape)
