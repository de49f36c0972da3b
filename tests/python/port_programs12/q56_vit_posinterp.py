import torch
import torch.nn as nn
import torch.nn.functional as F
class PatchEmbed(nn.Module):
    def __init__(self, img=8, p=2, c=3, d=12):
        super().__init__(); self.proj = nn.Conv2d(c, d, kernel_size=p, stride=p); self.n = (img // p) ** 2
    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)
class ViT(nn.Module):
    def __init__(self, d=12, ncls=5):
        super().__init__()
        self.patch = PatchEmbed(d=d)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, d))
        self.pos_embed = nn.Parameter(torch.zeros(1, 1 + self.patch.n, d))
        layer = nn.TransformerEncoderLayer(d, 3, 24, dropout=0.0, activation="gelu", batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d); self.head = nn.Linear(d, ncls)
    def interpolate_pos(self, n):
        cls_pos, patch_pos = self.pos_embed[:, :1], self.pos_embed[:, 1:]
        g = int(patch_pos.shape[1] ** 0.5); ng = int(n ** 0.5)
        if g == ng: return self.pos_embed
        patch_pos = patch_pos.reshape(1, g, g, -1).permute(0, 3, 1, 2)
        patch_pos = F.interpolate(patch_pos, size=(ng, ng), mode="bicubic", align_corners=False)
        return torch.cat([cls_pos, patch_pos.permute(0, 2, 3, 1).flatten(1, 2)], dim=1)
    def forward(self, x):
        x = self.patch(x)
        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1) + self.interpolate_pos(x.shape[1])
        x = self.norm(self.blocks(x))
        return self.head(x[:, 0])
model = det(ViT(), scale=0.2)
x = data(3, 3, 8, 8); y = torch.tensor([0, 3, 4])
decay, no_decay = [], []
for n, p in model.named_parameters():
    (no_decay if p.ndim <= 1 or n in ("cls_token", "pos_embed") else decay).append(p)
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}], lr=1e-3)
sched = torch.optim.lr_scheduler.SequentialLR(opt, [torch.optim.lr_scheduler.LinearLR(opt, 0.1, total_iters=2), torch.optim.lr_scheduler.CosineAnnealingLR(opt, 4)], [2])
losses = []
for _ in range(5):
    opt.zero_grad(); loss = F.cross_entropy(model(x), y, label_smoothing=0.1); loss.backward(); opt.step(); sched.step(); losses.append(loss.item())
model.eval()
with torch.no_grad():
    big = model(data(2, 3, 12, 12, seed=5))
report(losses=losses, big=big, nd=[len(decay), len(no_decay)], lr=sched.get_last_lr())
