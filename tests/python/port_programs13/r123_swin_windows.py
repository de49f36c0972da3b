import torch
import torch.nn as nn
def window_partition(x, ws):
    B, H, W, C = x.shape
    x = x.view(B, H // ws, ws, W // ws, ws, C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, ws, ws, C)
def window_reverse(windows, ws, H, W):
    B = int(windows.shape[0] / (H * W / ws / ws))
    x = windows.view(B, H // ws, W // ws, ws, ws, -1)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(B, H, W, -1)
ws = 2
coords = torch.stack(torch.meshgrid([torch.arange(ws), torch.arange(ws)], indexing="ij"))
coords_flat = torch.flatten(coords, 1)
rel = coords_flat[:, :, None] - coords_flat[:, None, :]
rel = rel.permute(1, 2, 0).contiguous()
rel[:, :, 0] += ws - 1
rel[:, :, 1] += ws - 1
rel[:, :, 0] *= 2 * ws - 1
index = rel.sum(-1)
table = nn.Parameter(torch.arange((2 * ws - 1) ** 2 * 2, dtype=torch.float32).view(-1, 2) / 10)
bias = table[index.view(-1)].view(ws * ws, ws * ws, -1).permute(2, 0, 1).contiguous()
x = data(1, 4, 4, 3)
shifted = torch.roll(x, shifts=(-1, -1), dims=(1, 2))
w = window_partition(shifted, ws)
back = torch.roll(window_reverse(w, ws, 4, 4), shifts=(1, 1), dims=(1, 2))
img_mask = torch.zeros((1, 4, 4, 1))
cnt = 0
for h in (slice(0, -ws), slice(-ws, -1), slice(-1, None)):
    for wsl in (slice(0, -ws), slice(-ws, -1), slice(-1, None)):
        img_mask[:, h, wsl, :] = cnt
        cnt += 1
mw = window_partition(img_mask, ws).view(-1, ws * ws)
attn_mask = mw.unsqueeze(1) - mw.unsqueeze(2)
attn_mask = attn_mask.masked_fill(attn_mask != 0, float(-100.0)).masked_fill(attn_mask == 0, float(0.0))
bias.sum().backward()
report(index=index, bias=bias[1], nw=list(w.shape), same=torch.equal(back, x), am=attn_mask[3], tg=table.grad.view(-1)[:6])
