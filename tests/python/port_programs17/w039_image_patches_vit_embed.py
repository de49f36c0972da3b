import torch
import torch.nn as nn


class PatchEmbed(nn.Module):
    def __init__(self, img=8, p=4, c=3, d=6):
        super().__init__()
        self.proj = nn.Conv2d(c, d, p, p)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, d))
        self.pos_embed = nn.Parameter(torch.zeros(1, (img // p) ** 2 + 1, d))

    def forward(self, x):
        x = self.proj(x).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        return torch.cat((cls, x), dim=1) + self.pos_embed


m = det(PatchEmbed())
x = data(2, 3, 8, 8, seed=1)
y = m(x)
patches = x.unfold(2, 4, 4).unfold(3, 4, 4).permute(0, 2, 3, 1, 4, 5).reshape(2, 4, -1)
lin = patches @ m.proj.weight.reshape(6, -1).t() + m.proj.bias
y.pow(2).sum().backward()
report(y=y[0, :2], eq=torch.allclose(lin, y[:, 1:] - m.pos_embed[:, 1:], atol=1e-5), gc=m.cls_token.grad, gp=m.pos_embed.grad[0, 0])
