import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchEmbed(nn.Module):
    def __init__(self, img=8, patch=4, c=3, d=16):
        super().__init__()
        self.proj = nn.Conv2d(c, d, patch, patch)
        self.n = (img // patch) ** 2

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class Attn(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.h, C // self.h).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        x = F.scaled_dot_product_attention(q, k, v)
        return self.proj(x.transpose(1, 2).reshape(B, N, C))


class ViT(nn.Module):
    def __init__(self, d=16, depth=2, classes=4):
        super().__init__()
        self.patch = PatchEmbed(d=d)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, d))
        self.pos_embed = nn.Parameter(torch.zeros(1, self.patch.n + 1, d))
        self.blocks = nn.ModuleList([nn.ModuleDict({"n1": nn.LayerNorm(d, eps=1e-6), "attn": Attn(d, 4), "n2": nn.LayerNorm(d, eps=1e-6),
                                                    "mlp": nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))}) for _ in range(depth)])
        self.norm = nn.LayerNorm(d, eps=1e-6)
        self.head = nn.Linear(d, classes)

    def forward(self, x):
        x = self.patch(x)
        x = torch.cat((self.cls_token.expand(x.shape[0], -1, -1), x), dim=1) + self.pos_embed
        for b in self.blocks:
            x = x + b["attn"](b["n1"](x))
            x = x + b["mlp"](b["n2"](x))
        return self.head(self.norm(x)[:, 0])


m = det(ViT(), scale=0.3).eval()
x = data(2, 3, 8, 8)
with torch.inference_mode():
    logits = m(x)
report(logits=logits, pred=logits.argmax(-1), conf=logits.softmax(-1).max(-1).values)
