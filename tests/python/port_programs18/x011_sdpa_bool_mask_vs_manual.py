import torch
import torch.nn.functional as F

q = data(2, 2, 4, 8, seed=1)
k = data(2, 2, 6, 8, seed=2)
v = data(2, 2, 6, 8, seed=3)
keep = torch.ones(2, 1, 4, 6, dtype=torch.bool)
keep[0, :, :, 4:] = False
keep[1, :, 2:, 0] = False
a = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
scores = q @ k.transpose(-2, -1) * (1.0 / 8 ** 0.5)
scores = scores.masked_fill(~keep, float("-inf"))
b = scores.softmax(-1) @ v
fmask = torch.zeros(2, 1, 4, 6).masked_fill(~keep, -1e4)
c = F.scaled_dot_product_attention(q, k, v, attn_mask=fmask, scale=0.5)
report(a=a[0, 1], close=torch.allclose(a, b, atol=1e-5), c=c[1, 0])
