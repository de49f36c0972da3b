import torch
import torch.nn.functional as F

T, W = 7, 3
i = torch.arange(T)
rel = i[None, :] - i[:, None]
mask = (rel <= 0) & (rel > -W)
q = data(1, 2, T, 4, seed=1)
k = data(1, 2, T, 4, seed=2)
v = data(1, 2, T, 4, seed=3)
out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
s = (q @ k.transpose(-1, -2)) / 2.0
s = s.masked_fill(~mask, float("-inf"))
ref = s.softmax(-1) @ v
cz = F.scaled_dot_product_attention(q, k, v, is_causal=True)
report(mask=mask.int(), out=out[0, 1], same=torch.allclose(out, ref, atol=1e-5), cz=cz[0, 0, -1], neq=not torch.allclose(out, cz))
