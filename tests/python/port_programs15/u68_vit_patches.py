import torch
import torch.nn as nn


class PatchEmbed(nn.Module):
    def __init__(self, img=8, patch=4, cin=3, d=12):
        super().__init__()
        self.proj = nn.Conv2d(cin, d, kernel_size=patch, stride=patch)
        self.n = (img // patch) ** 2

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class ViT(nn.Module):
    def __init__(self, d=12, depth=2, heads=3, ncls=5):
        super().__init__()
        self.patch = PatchEmbed(d=d)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, d))
        self.pos = nn.Parameter(torch.zeros(1, self.patch.n + 1, d))
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, activation=nn.functional.gelu,
                                           batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth, norm=nn.LayerNorm(d))
        self.head = nn.Linear(d, ncls)

    def forward(self, x):
        x = self.patch(x)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat((cls, x), dim=1) + self.pos
        return self.head(self.encoder(x)[:, 0])


torch.manual_seed(0)
vit = det(ViT(), scale=0.15)
imgs = data(3, 3, 8, 8)
labels = torch.tensor([4, 0, 2])
opt = torch.optim.AdamW(vit.parameters(), lr=1e-3)
no_decay = [n for n, p in vit.named_parameters() if p.ndim < 2 or "token" in n or "pos" in n]
hist = []
for _ in range(2):
    out = vit(imgs)
    loss = nn.functional.cross_entropy(out, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
def window_partition(x, ws):
    B, H, W, C = x.shape
    x = x.view(B, H // ws, ws, W // ws, ws, C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, ws, ws, C)


win = window_partition(torch.arange(2 * 4 * 4 * 1.0).view(2, 4, 4, 1), 2)
report(hist=hist, out=out[0], n_no_decay=len(no_decay), win=win[1, :, :, 0], nwin=win.shape[0])
