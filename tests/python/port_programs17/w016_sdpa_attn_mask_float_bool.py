import torch
import torch.nn.functional as F

q = data(2, 3, 4, 8, seed=1)
k = data(2, 3, 6, 8, seed=2)
v = data(2, 3, 6, 8, seed=3)
bm = torch.ones(4, 6, dtype=torch.bool).tril(diagonal=2)
fm = torch.zeros(4, 6).masked_fill(~bm, float("-inf"))
a = F.scaled_dot_product_attention(q, k, v, attn_mask=bm)
b = F.scaled_dot_product_attention(q, k, v, attn_mask=fm)
c = F.scaled_dot_product_attention(q, k, v, attn_mask=bm, scale=0.5)
pad = torch.tensor([[True] * 6, [True] * 4 + [False] * 2])[:, None, None, :]
d = F.scaled_dot_product_attention(q, k, v, attn_mask=pad)
ref = torch.softmax((q @ k.transpose(-2, -1)) * 0.5 + fm, -1) @ v
report(a=a[1, 2], same=torch.allclose(a, b, atol=1e-6), c=c[0, 0], cref=torch.allclose(c, ref, atol=1e-5), d=d[1, 0])
