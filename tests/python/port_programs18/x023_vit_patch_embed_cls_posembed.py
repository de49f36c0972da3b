import torch
import torch.nn as nn


class PatchEmbed(nn.Module):
    def __init__(self, img=8, patch=4, c=3, d=6):
        super().__init__()
        self.proj = nn.Conv2d(c, d, patch, patch)
        self.n = (img // patch) ** 2

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class ViT(nn.Module):
    def __init__(self, d=6):
        super().__init__()
        self.patch = PatchEmbed(d=d)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, d))
        self.pos_embed = nn.Parameter(torch.zeros(1, self.patch.n + 1, d))
        layer = nn.TransformerEncoderLayer(d, 2, 12, dropout=0.0, batch_first=True, norm_first=True, activation="gelu")
        self.enc = nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, 4)

    def forward(self, x):
        x = self.patch(x)
        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], 1) + self.pos_embed
        return self.head(self.norm(self.enc(x))[:, 0])


m = det(ViT(), scale=0.3)
x = data(2, 3, 8, 8, seed=5)
y = m(x)
y.sum().backward()
report(y=y, gcls=m.cls_token.grad.flatten(), npar=sum(p.numel() for p in m.parameters()),
       names=[n for n, _ in m.named_parameters()][:6])
